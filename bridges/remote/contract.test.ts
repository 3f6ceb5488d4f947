import { afterAll } from 'vitest';
import { describeContract } from '../core/contract-suite.vitest.ts';
import { createRemoteBridge, startReferenceServer } from './index.ts';

// The bridge needs the server's schema at collection time, hence top-level await.
const server = await startReferenceServer();
const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
afterAll(() => server.close());

describeContract(bridge, { tasks: 2, seeds: [0, 5], steps: 5 });
