// Scale-out against the PostgreSQL and Redis running on this machine: `harness worker` child
// processes consume a run's episodes; one is SIGKILLed mid-episode; another takes over.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import {
  killAll,
  obliterateQueues,
  REDIS_URL,
  slowSpec,
  startHarnessWorker,
  until,
} from '../testing/processes.ts';
import { defaultEngine } from './default-engine.ts';
import { runEpisode } from './episode.ts';
import type { Rollouts } from './service.ts';
import { testRollouts } from './testing.ts';

const queueName = `test-episodes-${randomBytes(4).toString('hex')}`;
const spec = slowSpec();

let db: TestDb;
let rollouts: Rollouts;
const children: ChildProcess[] = [];

function startWorker() {
  const worker = startHarnessWorker(
    ['--inline', '--concurrency', '2', '--lock-ms', '1500', '--stalled-ms', '1000'].concat(
      '--queue-name',
      queueName,
    ),
    { DATABASE_URL: db.url, REDIS_URL },
  );
  children.push(worker.child);
  return worker;
}

beforeAll(async () => {
  db = await createTestDb('postgres');
  rollouts = testRollouts(db, defaultEngine(builtInBridges), { redisUrl: REDIS_URL, queueName });
});

afterAll(async () => {
  killAll(children);
  await rollouts.close();
  await obliterateQueues(REDIS_URL, [queueName]);
  await rollouts.events.close();
  await db?.close();
});

describe('BullMQ workers (PostgreSQL + Redis)', () => {
  it('records every episode exactly once when a worker is SIGKILLed mid-episode', async () => {
    const k = 8;
    const { runId } = await rollouts.launchRun({
      spec,
      policy: 'scripted:household-explorer',
      k,
      seed: 100,
      queue: 'bullmq',
    });
    const a = startWorker();
    const aId = await a.ready;
    // Kill A once it has finished something and is in the middle of another episode.
    await until('worker A mid-episode', async () => {
      const done = await db.db.episode.count({ where: { runId, status: 'done', workerId: aId } });
      const running = await db.db.episode.count({
        where: { runId, status: 'running', workerId: aId },
      });
      return done >= 1 && running >= 1 ? true : undefined;
    });
    a.child.kill('SIGKILL');
    const orphaned = await db.db.episode.findMany({
      where: { runId, status: 'running', workerId: aId },
      select: { id: true },
    });
    expect(orphaned.length).toBeGreaterThan(0);

    const b = startWorker();
    await b.ready;
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    expect(summary.episodesDone).toBe(k);
    expect(summary.counts).toEqual({ queued: 0, running: 0, done: k });

    const episodes = (await rollouts.listEpisodes(runId)).items;
    expect(episodes).toHaveLength(k);
    // the episodes A was running when it died were retried by B under a new attempt
    for (const o of orphaned) {
      const e = episodes.find((x) => x.id === o.id);
      expect(e?.attempt).toBeGreaterThanOrEqual(2);
      expect(e?.status).toBe('done');
    }
    // exactly one recording each: one episode_ended event, steps matching the stored count
    const ended = (await rollouts.events.list(runId, undefined, 10_000)).filter(
      (e) => e.type === 'episode_ended',
    );
    expect(ended).toHaveLength(k);
    expect(new Set(ended.map((e) => (e.payload as { episodeId: string }).episodeId)).size).toBe(k);
    const stepCounts = await db.db.step.groupBy({
      by: ['episodeId'],
      where: { episode: { runId } },
      _count: true,
      _max: { attempt: true },
    });
    for (const e of episodes) {
      const c = stepCounts.find((s) => s.episodeId === e.id);
      expect(c?._count).toBe(e.steps);
      expect(c?._max.attempt).toBe(e.attempt);
    }
    // and the same results as running the seeds in-process (determinism across processes)
    for (const e of episodes.slice(0, 3)) {
      const local = await runEpisode(
        {
          spec,
          seed: e.seed,
          policyId: 'scripted:household-explorer',
        },
        builtInBridges,
      );
      expect([local.outcome, local.steps]).toEqual([e.outcome, e.steps]);
    }
    b.child.kill('SIGTERM');
    await new Promise((r) => b.child.once('exit', r));
    expect(b.child.exitCode).toBe(0);
  }, 180_000);
});
