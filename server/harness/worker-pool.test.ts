// IsolatedPool: a hook stuck in a long built-in (beyond the interrupt handler's reach) is killed
// by the watchdog within about a second, a dying worker is replaced, and the next job runs.
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessCodeError } from '../errors.ts';
import type { HarnessSpec } from './spec.ts';
import { act } from './testing/fake-bridges.ts';
import type { EpisodeInput, EpisodeOutput } from './testing/pool-handlers.ts';
import { IsolatedPool, JobAbortedError, WorkerCrashError } from './worker-pool.ts';

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

  it('leaves no listener on a run signal its jobs shared once they settle', async () => {
    const run = new AbortController();
    await Promise.all([
      pool.run('episode', solve, { signal: run.signal }),
      pool.run('episode', solve, { signal: run.signal }),
      pool
        .run('episode', { ...solve, spec: contract('syntax error (') }, { signal: run.signal })
        .catch(() => undefined),
    ]);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  }, 60_000);

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

describe('IsolatedPool bounds', () => {
  it('never runs more threads than its size, starts them on demand and stops idle ones', async () => {
    const pool = new IsolatedPool({ size: 2, module: HANDLERS, idleMs: 300 });
    try {
      expect(pool.workers).toBe(0);
      let most = 0;
      const watch = setInterval(() => {
        most = Math.max(most, pool.workers);
      }, 5);
      const done = await Promise.all(
        [1, 2, 3, 4, 5].map((i) => pool.run<number>('sleep', { ms: 50 + i })),
      );
      clearInterval(watch);
      expect(done).toEqual([51, 52, 53, 54, 55]);
      expect(most).toBe(2);
      await expect.poll(() => pool.workers, { timeout: 5000 }).toBe(0);
      // Work after the idle stop starts a worker again.
      expect(await pool.run('echo', { again: true })).toEqual({ again: true });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('an aborted job is dropped from the queue, or its thread is terminated however stuck', async () => {
    const pool = new IsolatedPool({ size: 1, module: HANDLERS });
    try {
      const stuck = new AbortController();
      const queued = new AbortController();
      const running = pool.run('spin', {}, { signal: stuck.signal }).catch((e: unknown) => e);
      const waiting = pool.run('echo', 1, { signal: queued.signal }).catch((e: unknown) => e);
      await expect.poll(() => pool.busy, { timeout: 30_000 }).toBe(1);
      queued.abort();
      expect(await waiting).toBeInstanceOf(JobAbortedError);
      const t0 = Date.now();
      stuck.abort();
      expect(await running).toBeInstanceOf(JobAbortedError);
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(pool.workers).toBe(0);
      expect(await pool.run('echo', 2)).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
