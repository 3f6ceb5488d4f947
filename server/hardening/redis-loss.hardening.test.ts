// Faults, scale-out: the Redis of a BullMQ run is SIGKILLed mid-run and started again empty — every
// job is gone. The database is the source of truth: the launching CLI says "queue unavailable,
// retrying" in one line, puts the lost jobs back when Redis answers and finishes the run; a studio
// started after the launcher died resumes the run at start. Each episode is recorded exactly once.
// Redis here is a redis-server of the test's own on a spare port, never the shared one. About 10 s
// each on a quiet machine; the time limits leave room for a machine shared by many test runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../compose.ts';
import { config } from '../config.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { DEFAULT_QUEUE_NAME } from '../rollouts/bullmq.ts';
import {
  killAll,
  ROOT,
  slowSpec,
  startHarnessWorker,
  until,
  waitForOutput,
} from '../testing/processes.ts';
import { startRedis, type ThrowawayRedis } from './fault-servers.ts';

const FIXTURE = fileURLToPath(new URL('./restart-scaleout-child.fixture.ts', import.meta.url));
// The CLI launches on the default queue; the Redis is the test's own, so nothing else is on it.
const QUEUE = DEFAULT_QUEUE_NAME;
const EPISODES = 12;
const spec = slowSpec('eval_seen-001', 15);

let redis: ThrowawayRedis;
let db: TestDb;
let dir: string;
let services: Services | undefined;
const children: ChildProcess[] = [];
const workerErr: string[] = [];

function env(): Record<string, string> {
  return { DATABASE_URL: db.url!, REDIS_URL: redis.url, RESUME_INTERVAL_MS: '2000' };
}

async function startWorkers(n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, () => {
      const w = startHarnessWorker(['--inline', '--concurrency', '2'], env());
      w.child.stderr?.on('data', (d: Buffer) => workerErr.push(d.toString()));
      children.push(w.child);
      return w.ready;
    }),
  );
}

const done = (runId: string) => db.db.episode.count({ where: { runId, status: 'done' } });

/** Kills Redis once `min` episodes are recorded and starts it again, empty, after `downMs`. */
async function loseRedis(runId: string, min: number, downMs: number): Promise<number> {
  await until('episodes done', async () => ((await done(runId)) >= min ? true : undefined), 90_000);
  await redis.kill();
  const atKill = await done(runId);
  await new Promise((r) => setTimeout(r, downMs));
  await redis.start();
  return atKill;
}

/** What "exactly once" means for a finished run, checked from the rows. */
async function expectRecordedOnce(runId: string): Promise<void> {
  const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect(run.status).toBe('completed');
  expect(run.episodesDone).toBe(EPISODES);
  const episodes = await db.db.episode.findMany({ where: { runId } });
  expect(episodes.filter((e) => e.status === 'done')).toHaveLength(EPISODES);
  const ended = await db.db.runEvent.findMany({ where: { runId, type: 'episode_ended' } });
  expect(ended).toHaveLength(EPISODES);
  const ids = ended.map((e) => (e.payload as { episodeId: string }).episodeId);
  expect(new Set(ids).size).toBe(EPISODES);
  expect(await db.db.runEvent.count({ where: { runId, type: 'run_completed' } })).toBe(1);
  const steps = await db.db.step.groupBy({
    by: ['episodeId'],
    where: { episode: { runId } },
    _count: true,
  });
  for (const e of episodes) expect(steps.find((s) => s.episodeId === e.id)?._count).toBe(e.steps);
}

beforeAll(async () => {
  [redis, db] = await Promise.all([startRedis(), createTestDb('postgres')]);
  dir = mkdtempSync(path.join(tmpdir(), 'redis-loss-'));
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  await startWorkers(2);
}, 60_000);

afterAll(async () => {
  killAll(children);
  await services?.close();
  await redis?.stop();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Redis lost mid-run (restarted empty)', () => {
  it('the launching CLI reports one line, re-enqueues the lost jobs and finishes the run', async () => {
    const t0 = performance.now();
    const cli = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/harness.mjs'),
        'rollout',
        '--spec',
        path.join(dir, 'spec.json'),
        '--policy',
        'scripted:household-explorer',
        '--episodes',
        String(EPISODES),
        '--seed',
        '500',
        '--queue',
        'bullmq',
      ],
      { cwd: ROOT, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(cli);
    let stderr = '';
    let stdout = '';
    cli.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    cli.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<number | null>((r) => cli.once('exit', r));
    const runId = await waitForOutput(cli, 'stderr', /run (\S+): \d+ episodes on bullmq/);

    const atKill = await loseRedis(runId, 2, 1500);
    expect(atKill, 'the kill must land mid-run').toBeLessThan(EPISODES);

    expect(await exited, stderr).toBe(0);
    expect(stdout).toContain(`run ${runId}`);
    await expectRecordedOnce(runId);
    // One line for the outage (and one when Redis is back), no stacks.
    const unavailable = stderr.match(/queue unavailable, retrying/g) ?? [];
    expect(unavailable.length).toBeGreaterThanOrEqual(1);
    expect(unavailable.length).toBeLessThanOrEqual(2);
    expect(stderr).toMatch(/queue available again after/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(workerErr.join('')).not.toMatch(/\n\s+at /);
    console.log(
      `redis loss (CLI): killed with ${atKill}/${EPISODES} done, run completed, ${Math.round(performance.now() - t0)} ms; ` +
        `launcher stderr ${stderr.split('\n').length} lines`,
    );
  }, 150_000);

  it('a studio started after the launcher died resumes the run: every episode recorded once', async () => {
    const t0 = performance.now();
    const launcher = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        FIXTURE,
        db.url!,
        redis.url,
        QUEUE,
        JSON.stringify(spec),
        String(EPISODES),
      ],
      { cwd: ROOT, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(launcher);
    const runId = await waitForOutput(launcher, 'stdout', /run (\S+)\n/);
    launcher.kill('SIGKILL');
    const atKill = await loseRedis(runId, 2, 500);
    expect(atKill).toBeLessThan(EPISODES);
    // Nobody holds the jobs any more: the run is stranded until a studio starts.
    await new Promise((r) => setTimeout(r, 1500));
    const stranded = await done(runId);
    expect(stranded).toBeLessThan(EPISODES);

    services = await composeServices({
      config: { ...config(), DATABASE_URL: db.url, REDIS_URL: redis.url, RESUME_INTERVAL_MS: 2000 },
    });
    const resumed = await services.resumeUnfinished();
    expect(resumed.runs).toContain(runId);
    const summary = await services.rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    await expectRecordedOnce(runId);
    console.log(
      `redis loss (studio restart): ${stranded}/${EPISODES} done when stranded, resumed at start, ` +
        `${Math.round(performance.now() - t0)} ms`,
    );
  }, 150_000);
});
