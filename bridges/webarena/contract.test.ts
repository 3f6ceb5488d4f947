// The shared ActionableEnv contract suite against the webarena bridge (a real Chromium; few tasks and
// steps because every episode is a browser context on the two sites).
import { afterAll, beforeAll, vi } from 'vitest';
import { describeContract } from '../core/contract-suite.vitest.ts';
import { configureWebshop, shutdownWebshopRuntime } from '../webshop/index.ts';
import { shutdownWebarenaSites, webarenaBridge } from './index.ts';

vi.setConfig({ testTimeout: 180_000 });

beforeAll(() => configureWebshop({ idleMs: 60_000 }));
afterAll(async () => {
  await shutdownWebshopRuntime();
  await shutdownWebarenaSites();
});

describeContract(webarenaBridge, { tasks: 1, seeds: [0], steps: 5, timeoutMs: 170_000 });
