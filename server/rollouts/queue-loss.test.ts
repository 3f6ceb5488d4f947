// The database is the source of truth for BullMQ runs: a launch while Redis is down stands and is
// reported in one line, and the jobs Redis does not hold are put back (at start, periodically, on
// reconnect) without touching the episodes a live worker holds. Redis here is a redis-server of the
// test's own on a spare port (server/hardening/fault-servers.ts); no workers: the jobs are counted.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, truncateAll } from '../db/testing.ts';
import { startRedis, type ThrowawayRedis } from '../hardening/fault-servers.ts';
import { until, withQueue } from '../testing/processes.ts';
import { RunEvents } from './events.ts';
import { Rollouts } from './service.ts';
import { counterEngine, counterSpec } from './testing.ts';

let db: TestDb;
let redis: ThrowawayRedis;
let rollouts: Rollouts | undefined;
let lines: string[] = [];
let queueName = '';

function make(): Rollouts {
  queueName = `test-queue-loss-${randomBytes(4).toString('hex')}`;
  lines = [];
  rollouts = new Rollouts({
    db: db.db,
    dbKind: 'postgres',
    engine: counterEngine(),
    events: new RunEvents(db.db),
    concurrency: 2,
    redisUrl: redis.url,
    queueName,
    status: (line) => lines.push(line),
    queueTimeoutMs: 500,
  });
  return rollouts;
}

/** Starts the test's Redis unless a test before did (each test also runs alone, with -t). */
let up = false;
async function redisUp(): Promise<void> {
  if (!up) await redis.start();
  up = true;
}

const launch = (r: Rollouts, k: number) =>
  r.launchRun({ spec: counterSpec, policy: 'test:inc', k, queue: 'bullmq' });

/** Job ids on the test's queue, in any state. */
const jobIds = () =>
  withQueue(redis.url, queueName, async (q) =>
    (await q.getJobs(['waiting', 'active', 'delayed', 'prioritized'])).map((j) => j.id),
  );

beforeAll(async () => {
  [db, redis] = await Promise.all([createTestDb('postgres'), startRedis({ start: false })]);
});

afterEach(async () => {
  await rollouts?.close();
  rollouts = undefined;
  await truncateAll(db.db); // each test's runs are the only unfinished ones
});

afterAll(async () => {
  await redis?.stop();
  await db?.close();
});

describe('BullMQ runs when Redis loses or misses their jobs', () => {
  it('a launch while Redis is down returns, says so in one line, and is enqueued when Redis is back', async () => {
    const r = make();
    r.startResumer({ intervalMs: 0 }); // on reconnect only: no timer does the work here
    const started = Date.now();
    const { runId } = await launch(r, 4);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^queue unavailable, retrying \(/);
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('queued');
    expect(await db.db.episode.count({ where: { runId, status: 'queued' } })).toBe(4);

    await redisUp();
    const episodes = await db.db.episode.findMany({ where: { runId }, select: { id: true } });
    await until(
      'the jobs back on the queue',
      async () => ((await jobIds()).length === 4 ? true : undefined),
      15_000,
    );
    expect((await jobIds()).sort()).toEqual(episodes.map((e) => e.id).sort());
    expect(lines.at(-1)).toMatch(/^queue available again after/);
  }, 30_000);

  it('start-up resume puts back only the lost jobs and leaves a live worker its episode', async () => {
    await redisUp();
    const r = make();
    const { runId } = await launch(r, 5);
    expect(await jobIds()).toHaveLength(5);
    const episodes = await db.db.episode.findMany({
      where: { runId },
      orderBy: { ordinal: 'asc' },
    });
    // A worker holds the first episode (attempt 1, running); Redis lost two other jobs.
    await db.db.episode.update({
      where: { id: episodes[0]!.id },
      data: { status: 'running', attempt: 1 },
    });
    await withQueue(redis.url, queueName, async (q) => {
      await q.remove(episodes[1]!.id);
      await q.remove(episodes[2]!.id);
    });
    expect(await jobIds()).toHaveLength(3);

    expect(await r.resumeUnfinishedRuns()).toEqual([runId]);
    expect((await jobIds()).sort()).toEqual(episodes.map((e) => e.id).sort());
    // Its status stays running: the live worker's result is still the one recorded.
    const held = await db.db.episode.findUniqueOrThrow({ where: { id: episodes[0]!.id } });
    expect({ status: held.status, attempt: held.attempt }).toEqual({
      status: 'running',
      attempt: 1,
    });
  });

  it('the periodic resumer puts back the jobs of a Redis flushed while connected', async () => {
    await redisUp();
    const r = make();
    const { runId } = await launch(r, 3);
    await withQueue(redis.url, queueName, (q) => q.obliterate({ force: true }));
    expect(await jobIds()).toHaveLength(0);
    const resumer = r.startResumer({ intervalMs: 200 });
    await until(
      'the jobs back',
      async () => ((await jobIds()).length === 3 ? true : undefined),
      10_000,
    );
    resumer.stop();
    // A finished run is left alone.
    await db.db.run.update({ where: { id: runId }, data: { status: 'cancelled' } });
    await withQueue(redis.url, queueName, (q) => q.obliterate({ force: true }));
    expect(await r.resumeUnfinishedRuns()).toEqual([]);
    expect(await jobIds()).toHaveLength(0);
  });
});
