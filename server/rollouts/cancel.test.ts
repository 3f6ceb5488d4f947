// One launch cannot exhaust the host: concurrency above the server's cap is refused with a clear
// message, a run's episodes run in at most its concurrency of threads, and cancelling a run stops
// its episodes in flight and gives their threads back (the real worker pool).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { InvalidInputError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { defaultEngine, poolExecutor } from './default-engine.ts';
import { RunEvents } from './events.ts';
import { Rollouts } from './service.ts';

let db: TestDb;
let rollouts: Rollouts;

/** Threads of this process (Linux). */
function threads(): number {
  const m = /^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m?.[1] ?? 0);
}

beforeAll(async () => {
  db = await createTestDb('pglite');
  rollouts = new Rollouts({
    db: db.db,
    dbKind: db.kind,
    // Idle workers stop after 200 ms here (15 s in the studio) so the test need not wait.
    engine: {
      ...defaultEngine(builtInBridges),
      executor: (size) => poolExecutor(size, { idleMs: 200 }),
    },
    events: new RunEvents(db.db),
    concurrency: 2,
    maxConcurrency: 3,
    maxWorkers: 3,
  });
});

afterAll(async () => {
  await rollouts.close();
  await db.close();
});

// Every agent step takes ~150 ms of hook time (under the 250 ms deadline): episodes stay in flight.
const slow: HarnessSpec = {
  version: 1,
  env: {
    type: 'contract',
    code: 'export function filterAction(a) { const t = Date.now(); while (Date.now() - t < 150) {} return a; }',
    env: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
  },
};

describe('launch caps and cancel', () => {
  it('refuses concurrency above the server cap, saying what the cap is', async () => {
    const error = await rollouts
      .launchRun({ spec: slow, policy: 'scripted:toy24-exact', k: 128, concurrency: 64 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toBe(
      'concurrency: 64 episodes at once is more than this server allows (at most 3; ROLLOUT_MAX_CONCURRENCY)',
    );
    expect(await db.db.run.count()).toBe(0);
  });

  it('cancel stops the episodes in flight and the thread count returns to its baseline', async () => {
    // The baseline after one finished run: the process's own helper threads (V8, libuv) exist then.
    const warm = await rollouts.launchRun({ spec: slow, policy: 'scripted:toy24-exact', k: 1 });
    await rollouts.waitForRun(warm.runId);
    let baseline = threads();
    await expect
      .poll(
        () => {
          const now = threads();
          const settled = now === baseline;
          baseline = now;
          return settled;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    const { runId } = await rollouts.launchRun({
      spec: slow,
      policy: 'scripted:toy24-exact',
      k: 12,
      concurrency: 3,
      maxSteps: 40,
      queue: 'local',
    });
    // Three episodes in flight, each in its own worker thread (and no more than three).
    await expect
      .poll(() => db.db.episode.count({ where: { runId, status: 'running' } }), {
        timeout: 60_000,
        interval: 100,
      })
      .toBeGreaterThanOrEqual(3);
    await expect
      .poll(threads, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(baseline + 3);
    const during = threads();

    const t0 = Date.now();
    await rollouts.cancelRun(runId);
    expect(Date.now() - t0).toBeLessThan(5000);
    // Episodes keep ending until the cancel commits (one can end while it is asked for, ~every
    // 150 ms here): the count that must hold is the one when cancelRun returns.
    const doneAtCancel = await db.db.episode.count({ where: { runId, status: 'done' } });
    expect(doneAtCancel).toBeLessThan(12);
    await expect
      .poll(threads, { timeout: 10_000, interval: 100 })
      .toBeLessThanOrEqual(baseline + 1);
    console.log(`threads: baseline ${baseline}, during ${during}, after cancel ${threads()}`);

    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('cancelled');
    // Nothing is left running, and nothing more is recorded after the cancel.
    expect(await db.db.episode.count({ where: { runId, status: 'running' } })).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await db.db.episode.count({ where: { runId, status: 'done' } })).toBe(doneAtCancel);
  }, 120_000);
});
