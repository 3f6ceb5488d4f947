// IsolatedPool: a hook stuck in a long built-in (beyond the interrupt handler's reach) is killed
// by the watchdog within about a second, a dying worker is replaced, and the next job runs.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessCodeError } from '../errors.ts';
import type { HarnessSpec } from './spec.ts';
import { act } from './testing/fake-bridges.ts';
import type { EpisodeInput, EpisodeOutput } from './testing/pool-handlers.ts';
import { IsolatedPool, WorkerCrashError } from './worker-pool.ts';

const HANDLERS = fileURLToPath(new URL('./testing/pool-handlers.ts', import.meta.url));

const contract = (code: string): HarnessSpec => ({
  version: 1,
  env: { type: 'contract', code, env: { type: 'base', bridge: 'room', task: 'key-in-box' } },
});

const solve: EpisodeInput = {
  spec: contract('export function filterObservation(o) { return o.text.toUpperCase(); }'),
  seed: 0,
  actions: [act('take key'), act('open box'), act('put key in box')],
  fake: true,
};

describe('IsolatedPool', () => {
  const pool = new IsolatedPool({ size: 1, module: HANDLERS, hookLimitMs: 1000 });
  afterAll(() => pool.close());

  it('runs a harnessed episode in a worker', async () => {
    const out = await pool.run<EpisodeOutput>('episode', solve);
    expect(out.evaluation.success).toBe(true);
    expect(out.agentSteps).toBe(3);
    expect(out.observations.at(-1)).toBe('YOU PUT THE KEY IN THE BOX.');
  }, 60_000);

  it('kills a hook stuck in long built-ins within about a second, then runs the next job', async () => {
    const replaced = pool.replaced;
    const t = performance.now();
    const err = await pool
      .run('episode', {
        ...solve,
        spec: contract("export function filterAction(a) { for (;;) 'x'.repeat(1e7); }"),
      })
      .catch((e: unknown) => e);
    const elapsed = performance.now() - t;
    expect(err).toBeInstanceOf(HarnessCodeError);
    expect((err as HarnessCodeError).hook).toBe('filterAction');
    expect((err as Error).message).toMatch(/hook filterAction exceeded its time limit of 1000 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(2500);
    expect(pool.replaced).toBe(replaced + 1);
    const next = await pool.run<EpisodeOutput>('episode', solve);
    expect(next.evaluation.success).toBe(true);
  }, 60_000);

  it('brings sandbox errors back typed, with their line', async () => {
    const err = await pool
      .run('episode', {
        ...solve,
        spec: contract('export function filterAction(a) {\n  return a.b.c;\n}'),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessCodeError);
    expect((err as HarnessCodeError).line).toBe(2);
  }, 60_000);

  it('a worker that dies fails its job with WorkerCrashError and is replaced', async () => {
    await expect(pool.run('exit', {})).rejects.toBeInstanceOf(WorkerCrashError);
    expect(await pool.run('echo', { ok: 1 })).toEqual({ ok: 1 });
  }, 60_000);
});
