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

  it('wake a waiter for the end only when a run may have ended: progress of this process needs no look', async () => {
    const rollouts = testRollouts(handle, counterEngine());
    try {
      const events = rollouts.events;
      const stop = new AbortController();
      const wakes = events.wakes('some-run', { pollMs: 60_000, signal: stop.signal });
      // The first look is always due (the run may have ended before the waiter listened).
      expect((await wakes.next()).value).toBe(true);
      events.notify(['some-run'], { ended: new Set() });
      expect((await wakes.next()).value).toBe(false);
      // Progress, then a write that may have ended it, before the waiter comes back: a look.
      events.notify(['some-run'], { ended: new Set() });
      events.notify(['some-run']);
      expect((await wakes.next()).value).toBe(true);
      // A batch that ended this run and not another: a look.
      events.notify(['some-run', 'other-run'], { ended: new Set(['some-run']) });
      expect((await wakes.next()).value).toBe(true);
      stop.abort();
      expect((await wakes.next()).done).toBe(true);
    } finally {
      await rollouts.close();
    }
  });

  it("the safety net's poll always asks for a look", async () => {
    const rollouts = testRollouts(handle, counterEngine());
    try {
      const stop = new AbortController();
      const wakes = rollouts.events.wakes('quiet-run', { pollMs: 20, signal: stop.signal });
      expect((await wakes.next()).value).toBe(true);
      expect((await wakes.next()).value).toBe(true);
      stop.abort();
      await wakes.return(undefined);
    } finally {
      await rollouts.close();
    }
  });

  it('a waiter looks at its run a few times, not once per write', async () => {
    const rollouts = testRollouts(handle, counterEngine({ delayMs: 25 }));
    try {
      const looks = vi.spyOn(handle.db.run, 'findUnique');
      const notify = vi.spyOn(rollouts.events, 'notify');
      const { runId } = await rollouts.launchRun({
        spec: counterSpec,
        policy: 'test:inc',
        k: 40,
        queue: 'local',
        concurrency: 1,
      });
      const before = looks.mock.calls.length;
      const summary = await rollouts.waitForRun(runId);
      expect(summary.status).toBe('completed');
      expect(summary.episodesDone).toBe(40);
      // One 25 ms episode at a time: a write (and a wake-up) per result, or nearly.
      expect(notify.mock.calls.length).toBeGreaterThanOrEqual(30);
      // waitForRun's own looks: the first, the one after the last write, and (when the run page's
      // summary is read) its own query; not one per write.
      expect(looks.mock.calls.length - before).toBeLessThanOrEqual(6);
    } finally {
      await rollouts.close();
    }
  });
});
