// Faults, scale-out: the studio process (PostgreSQL + Redis) launches a BullMQ run and is
// SIGKILLed mid-run while `harness worker` processes keep executing its episodes. The run
// completes, every episode is recorded exactly once, and a live viewer misses no event.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { defaultEngine } from '../rollouts/default-engine.ts';
import type { Rollouts } from '../rollouts/service.ts';
import { testRollouts } from '../rollouts/testing.ts';
import {
  killAll,
  obliterateQueues,
  REDIS_URL,
  ROOT,
  slowSpec,
  startHarnessWorker,
  until,
  waitForOutput,
} from '../testing/processes.ts';

const FIXTURE = fileURLToPath(new URL('./restart-scaleout-child.fixture.ts', import.meta.url));
const queueName = `test-restart-${randomBytes(4).toString('hex')}`;
const EPISODES = 8;
const spec = slowSpec();

let db: TestDb;
let rollouts: Rollouts;
const children: ChildProcess[] = [];

function spawnChild(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function startWorker(): Promise<string> {
  const worker = startHarnessWorker(['--inline', '--concurrency', '2', '--queue-name', queueName], {
    DATABASE_URL: db.url,
    REDIS_URL,
  });
  children.push(worker.child);
  return worker.ready;
}

beforeAll(async () => {
  db = await createTestDb('postgres');
  rollouts = testRollouts(db, defaultEngine(builtInBridges), { redisUrl: REDIS_URL, queueName });
}, 60_000);

afterAll(async () => {
  killAll(children);
  await rollouts.close();
  await obliterateQueues(REDIS_URL, [queueName]);
  await rollouts.events.close();
  await db?.close();
});

describe('server restart mid-run (scale-out: PostgreSQL + Redis + BullMQ)', () => {
  it('the workers finish the run of a killed server: each episode recorded once, viewer gap-free', async () => {
    const t0 = performance.now();
    await Promise.all([startWorker(), startWorker()]);
    const server = spawnChild([
      '--import',
      'tsx',
      FIXTURE,
      db.url!,
      REDIS_URL,
      queueName,
      JSON.stringify(spec),
      String(EPISODES),
    ]);
    const runId = await waitForOutput(server, 'stdout', /run (\S+)\n/);

    // A viewer (the browser) follows from the first event across the server's death.
    const seen: string[] = [];
    const viewer = (async () => {
      for await (const e of rollouts.events.subscribe(runId, '0', {
        untilCompleted: true,
        pollMs: 200,
      })) {
        seen.push(e.id);
      }
    })();

    // Kill the server once some episodes are done and the rest are not.
    await until('an episode done', async () =>
      (await db.db.episode.count({ where: { runId, status: 'done' } })) >= 1 ? true : undefined,
    );
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const doneAtKill = await db.db.episode.count({ where: { runId, status: 'done' } });
    expect(doneAtKill, 'the kill must land mid-run').toBeLessThan(EPISODES);

    const summary = await rollouts.waitForRun(runId);
    await viewer;
    expect(summary.status).toBe('completed');
    expect(summary.episodesDone).toBe(EPISODES);
    expect(summary.counts).toEqual({ queued: 0, running: 0, done: EPISODES });

    const episodes = (await rollouts.listEpisodes(runId)).items;
    expect(episodes).toHaveLength(EPISODES);
    const stored = await rollouts.events.listAll(runId);
    const ended = stored.filter((e) => e.type === 'episode_ended');
    expect(ended).toHaveLength(EPISODES);
    expect(new Set(ended.map((e) => (e.payload as { episodeId: string }).episodeId)).size).toBe(
      EPISODES,
    );
    expect(stored.filter((e) => e.type === 'run_completed')).toHaveLength(1);
    // Exactly one recording each: the stored steps match each episode's count.
    const stepCounts = await db.db.step.groupBy({
      by: ['episodeId'],
      where: { episode: { runId } },
      _count: true,
    });
    for (const e of episodes) {
      expect(stepCounts.find((s) => s.episodeId === e.id)?._count).toBe(e.steps);
    }
    expect(seen).toEqual(stored.map((e) => e.id));
    console.log(
      `scale-out restart: server killed with ${doneAtKill} of ${EPISODES} episodes done; the workers finished the run; ` +
        `${episodes.length} recorded once, ${stored.length} events, viewer saw all ${seen.length}, ` +
        `${Math.round(performance.now() - t0)} ms`,
    );
  }, 120_000);
});
