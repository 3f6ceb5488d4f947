import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { counterEngine, counterSpec, testRollouts } from './testing.ts';

describe('run events: many viewers of one run', () => {
  let handle: TestDb;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
  });
  afterAll(async () => {
    await handle.close();
  });

  it('share one read per wake-up, and each still gets every event once, in order', async () => {
    const rollouts = testRollouts(handle, counterEngine({ delayMs: 5 }));
    try {
      const events = rollouts.events;
      const notify = vi.spyOn(events, 'notify');
      const reads = vi.spyOn(events, 'list');
      const { runId } = await rollouts.launchRun({
        spec: counterSpec,
        policy: 'test:inc',
        k: 12,
        queue: 'local',
      });
      const viewers = Array.from({ length: 10 }, async () => {
        const ids: string[] = [];
        for await (const e of events.subscribe(runId, '0', { untilCompleted: true })) {
          ids.push(e.id);
        }
        return ids;
      });
      const seen = await Promise.all(viewers);
      const stored = (await events.listAll(runId)).map((e) => e.id);
      for (const ids of seen) expect(ids).toEqual(stored);
      // Without sharing, every viewer reads once per wake-up: ten times as many reads.
      const wakeUps = notify.mock.calls.length;
      expect(reads.mock.calls.length).toBeLessThan(3 * (wakeUps + 1) + 10);
    } finally {
      await rollouts.close();
    }
  });
});
