// Scale-out against the PostgreSQL and Redis running on this machine: `harness worker` child
// processes consume a run's episodes; one is SIGKILLed mid-episode; another takes over.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { defaultEngine } from './default-engine.ts';
import { runEpisode } from './episode.ts';
import type { Rollouts } from './service.ts';
import { testRollouts } from './testing.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REDIS_URL = 'redis://127.0.0.1:6379';
const queueName = `test-episodes-${randomBytes(4).toString('hex')}`;
// Slows every step by ~25 ms inside the sandbox so that a kill lands mid-episode.
const SLOW =
  'function filterAction(action) { const t = Date.now(); while (Date.now() - t < 25) {} return action; }';
const spec: HarnessSpec = {
  version: 1,
  env: {
    type: 'contract',
    code: SLOW,
    env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
  },
};

let db: TestDb;
let rollouts: Rollouts;
const children: ChildProcess[] = [];

function startWorker(): { child: ChildProcess; id: Promise<string> } {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/harness.mjs'),
      'worker',
      '--inline',
      '--concurrency',
      '2',
      '--lock-ms',
      '1500',
      '--stalled-ms',
      '1000',
      '--queue-name',
      queueName,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: db.url, REDIS_URL },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  const id = new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /worker (\S+) ready/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${stderr}`)));
  });
  return { child, id };
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  db = await createTestDb('postgres');
  rollouts = testRollouts(db, defaultEngine(builtInBridges), { redisUrl: REDIS_URL, queueName });
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rollouts.close();
  const q = new Queue(queueName, {
    connection: new Redis(REDIS_URL, { maxRetriesPerRequest: null }),
  });
  await q.obliterate({ force: true }).catch(() => undefined);
  await q.close();
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
    const aId = await a.id;
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
    await b.id;
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
