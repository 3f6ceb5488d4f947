// prestartWorker: a worker started before its pool exists is the one the pool's first job runs
// in (no second thread), whether it was ready by then or still loading; unused ones are dropped.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dropSpareWorkers, IsolatedPool, prestartWorker, spareWorkers } from './worker-pool.ts';

const HANDLERS = fileURLToPath(new URL('./testing/pool-handlers.ts', import.meta.url));

async function firstJobThread(waitMs: number): Promise<{ spare: number; thread: number }> {
  const spare = prestartWorker(HANDLERS);
  // A second call for the same module starts nothing more.
  expect(prestartWorker(HANDLERS)).toBe(spare);
  expect(spareWorkers()).toBe(1);
  await sleep(waitMs);
  const pool = new IsolatedPool({ size: 2, module: HANDLERS });
  try {
    const thread = await pool.run<number>('threadId', null);
    expect(spareWorkers()).toBe(0);
    expect(pool.workers).toBe(1);
    return { spare, thread };
  } finally {
    await pool.close();
  }
}

describe('prestartWorker', () => {
  it('hands its worker to the first pool of the module, ready or still loading', async () => {
    for (const waitMs of [0, 3000]) {
      const { spare, thread } = await firstJobThread(waitMs);
      expect(thread, `after ${waitMs} ms`).toBe(spare);
    }
  }, 60_000);

  it('ends the spares no pool took', async () => {
    prestartWorker(HANDLERS);
    expect(spareWorkers()).toBe(1);
    await dropSpareWorkers();
    expect(spareWorkers()).toBe(0);
    // A pool started afterwards starts its own worker.
    const pool = new IsolatedPool({ size: 1, module: HANDLERS });
    try {
      expect(await pool.run('echo', 7)).toBe(7);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
