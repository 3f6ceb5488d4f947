// Rigs on BullMQ (PostgreSQL + Redis on this machine): the studio records a rig and adds its job;
// `harness worker` processes drive it. A worker stopped with SIGTERM puts the rig back between
// steps; a worker SIGKILLed mid-validation loses the job's lock and another worker takes the
// stalled job over. Each time the next worker resumes the rig from its rows: every iteration, run
// and episode recorded once. Episodes are played (slowly) by this process's own episode worker.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { rigQueueName } from '../rigger/bullmq.ts';
import { rigRunId } from '../rigger/observe.ts';
import { type EpisodeWorker, startEpisodeWorker } from '../rollouts/bullmq.ts';
import { inProcessExecutor } from '../rollouts/default-engine.ts';
import { PASS_THROUGH_OPTIONS } from '../rollouts/engine.ts';
import {
  killAll,
  obliterateQueues,
  REDIS_URL,
  startHarnessWorker,
  until,
  withQueue,
} from '../testing/processes.ts';
import { testServices } from '../testing/services.ts';

const queueName = `test-rig-episodes-${randomBytes(4).toString('hex')}`;
const K = 5;

let handle: TestDb;
let studio: Services;
let episodes: EpisodeWorker | undefined;
const children: ChildProcess[] = [];

/** A worker that drives rigs only (--concurrency 0): the episodes are this process's. */
function startRigWorker() {
  const worker = startHarnessWorker(
    ['--concurrency', '0', '--rigs', '1', '--lock-ms', '1500', '--stalled-ms', '1000'].concat(
      '--queue-name',
      queueName,
    ),
    { DATABASE_URL: handle.url, REDIS_URL },
  );
  children.push(worker.child);
  return worker;
}

beforeAll(async () => {
  handle = await createTestDb('postgres');
  studio = await testServices(handle, { config: { REDIS_URL }, queueName });
  // Episodes one at a time, each after 250 ms: a validation takes over a second.
  const inner = inProcessExecutor(studio.bridges);
  episodes = startEpisodeWorker({
    db: handle.db,
    events: studio.events,
    policyOptions: PASS_THROUGH_OPTIONS,
    redisUrl: REDIS_URL,
    queueName,
    concurrency: 1,
    executor: {
      run: async (input) => {
        await new Promise((r) => setTimeout(r, 250));
        return inner.run(input);
      },
      close: () => inner.close(),
    },
  });
  await episodes.ready();
}, 60_000);

afterAll(async () => {
  killAll(children);
  await episodes?.close();
  await studio?.close();
  await obliterateQueues(REDIS_URL, [queueName, rigQueueName(queueName)]);
  await handle?.close();
});

describe('rig jobs on BullMQ', () => {
  it('a stopped and then a killed worker hand the rig on; it ends recorded once', async () => {
    const db = handle.db;
    // A rig that refines once and accepts its second candidate (server/rigger/resume.test.ts).
    const { rigId } = await studio.rigs.start({
      task: 'household:eval_seen-007',
      policy: 'scripted:household-explorer',
      k: K,
    });
    const row = await db.rig.findUniqueOrThrow({ where: { id: rigId } });
    expect(row.constraints).toMatchObject({ queue: 'bullmq' });

    // A: takes the rig, is stopped (SIGTERM) once its baseline run is recorded.
    const a = startRigWorker();
    await a.ready;
    await until('the baseline launched', async () => {
      const r = await db.rig.findUniqueOrThrow({ where: { id: rigId } });
      return r.baselineRunId ? true : undefined;
    });
    a.child.kill('SIGTERM');
    expect(await new Promise((r) => a.child.once('exit', r))).toBe(0);
    expect((await db.rig.findUniqueOrThrow({ where: { id: rigId } })).status).toBe('running');
    // Put back, not failed and not left to stall: the job waits for the next worker.
    expect(await withQueue(REDIS_URL, rigQueueName(queueName), (q) => q.getJobState(rigId))).toBe(
      'waiting',
    );

    // B: takes the job A put back, is SIGKILLed while the second candidate validates.
    const b = startRigWorker();
    await b.ready;
    await until('the second candidate validating', async () => {
      const c = await db.candidate.findFirst({ where: { rigId, iteration: 1 } });
      return c?.validationRunId && !c.decision ? true : undefined;
    });
    b.child.kill('SIGKILL');
    await new Promise((r) => b.child.once('exit', r));
    expect((await db.rig.findUniqueOrThrow({ where: { id: rigId } })).status).toBe('running');

    // C: takes the stalled job over once B's lock has expired.
    const c = startRigWorker();
    await c.ready;
    const done = await until('the rig to finish', async () => {
      const r = await db.rig.findUniqueOrThrow({
        where: { id: rigId },
        include: { candidates: { orderBy: { iteration: 'asc' } }, diagnoses: true },
      });
      return r.status === 'completed' || r.status === 'failed' ? r : undefined;
    });
    expect(done.error).toBeNull();
    expect(done.status).toBe('completed');
    expect(done.acceptedCandidateId).not.toBeNull();
    expect(done.diagnoses).toHaveLength(1);
    expect(done.candidates.map((x) => x.iteration)).toEqual(done.candidates.map((_, i) => i));
    expect(done.candidates.map((x) => x.validationRunId)).toEqual(
      done.candidates.map((x) => rigRunId(rigId, 0, x.iteration)),
    );
    const runs = await db.run.findMany({ include: { _count: { select: { episodes: true } } } });
    expect(runs.map((r) => r.id).sort()).toEqual(
      [rigRunId(rigId, 0, 'baseline'), ...done.candidates.map((x) => x.validationRunId)].sort(),
    );
    for (const run of runs) {
      expect(run.queue).toBe('bullmq');
      expect(run.status).toBe('completed');
      expect([run._count.episodes, run.episodesDone]).toEqual([K, K]);
    }
    c.child.kill('SIGTERM');
    await new Promise((r) => c.child.once('exit', r));
  }, 180_000);
});
