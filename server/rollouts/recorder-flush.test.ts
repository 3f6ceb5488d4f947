import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { RunEvents } from './events.ts';
import { EpisodeRecorder } from './recorder.ts';
import { counterSpec } from './testing.ts';
import type { EpisodeResult } from './types.ts';

const result: EpisodeResult = {
  outcome: 'success',
  steps: 0,
  invalidActions: 0,
  envReward: 0,
  durationMs: 1,
  trajectory: [],
  taskId: 'reach-3',
  seed: 0,
};

describe('episode recorder: when an episode ends', () => {
  let handle: TestDb;

  beforeAll(async () => {
    // A PostgreSQL server: its now() is not the test's (PGlite's clock is this process's Date).
    handle = await createTestDb('postgres');
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await handle.close();
  });

  /** A run of one episode, claimed (attempt 1) by a recorder that does not linger. */
  async function claimedEpisode() {
    const db = handle.db;
    const run = await db.run.create({
      data: {
        policy: 'test:inc',
        spec: counterSpec,
        taskIds: ['reach-3'],
        k: 1,
        seeds: [0],
        maxSteps: 50,
        rewardParams: {},
        episodesTotal: 1,
      },
    });
    const episode = await db.episode.create({
      data: { runId: run.id, taskId: 'reach-3', seed: 0, ordinal: 0 },
    });
    const setup = new EpisodeRecorder('setup', { db, events: new RunEvents(db) });
    const claimed = await setup.claim({ id: episode.id, runId: run.id });
    if (!claimed) throw new Error('claim failed');
    return claimed;
  }

  /** A claimed episode put back to queued: a recorder can claim it again (attempt 2). */
  async function requeuedEpisode() {
    const next = await claimedEpisode();
    await handle.db.episode.update({ where: { id: next.id }, data: { status: 'queued' } });
    return next;
  }

  /** A recorder whose claims linger far beyond the test's timeout. */
  const lingeringRecorder = (resultLingerMs?: number) =>
    new EpisodeRecorder('w', {
      db: handle.db,
      events: new RunEvents(handle.db),
      lingerMs: 3_600_000,
      ...(resultLingerMs === undefined ? {} : { resultLingerMs }),
    });

  it('writes a result at once, cutting short the linger of a claim queued before it', async () => {
    const ended = await claimedEpisode();
    const next = await requeuedEpisode();
    // Only a flush the result cut short can finish.
    const recorder = lingeringRecorder();
    const claim = recorder.claim({ id: next.id, runId: next.runId });
    expect(await recorder.record({ ...ended, result })).toBe(true);
    expect((await claim)?.attempt).toBe(2);
  });

  it('with a result linger, results ending within it share one write, started within it', async () => {
    const a = await claimedEpisode();
    const b = await claimedEpisode();
    const next = await requeuedEpisode();
    const recorder = lingeringRecorder(40);
    const started = performance.now();
    const claim = recorder.claim({ id: next.id, runId: next.runId });
    const first = recorder.record({ ...a, result });
    await new Promise((r) => setTimeout(r, 10));
    const second = recorder.record({ ...b, result });
    expect(await Promise.all([first, second, claim.then((c) => c?.attempt)])).toEqual([
      true,
      true,
      2,
    ]);
    expect(recorder.stats.flushes).toBe(1);
    expect(recorder.stats.ops).toBe(3);
    // The claim's hour-long linger was cut to the result's 40 ms (plus the write itself).
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stores finishedAt as the moment the result reached it, not when the write ran', async () => {
    const recorder = new EpisodeRecorder('w', {
      db: handle.db,
      events: new RunEvents(handle.db),
    });
    const claimed = await claimedEpisode();
    // The recorder's clock stands still in the past; the database's now() does not.
    const ended = new Date('2020-01-02T03:04:05.678Z');
    vi.useFakeTimers({ toFake: ['Date'], now: ended });
    expect(await recorder.record({ ...claimed, result })).toBe(true);
    vi.useRealTimers();
    const stored = await handle.db.episode.findUniqueOrThrow({ where: { id: claimed.id } });
    expect(stored.finishedAt?.toISOString()).toBe(ended.toISOString());
  });
});
