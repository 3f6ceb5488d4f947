// Faults: the PostgreSQL server restarts mid-run (`pg_ctl stop -m fast`: every session gets 57P01,
// then connections are refused, then 57P03 while it starts). The launching CLI, the BullMQ workers
// and the CLI running a local run ride it out — "database unavailable, retrying" in one line, no
// `internal error` — and every episode is recorded exactly once. PostgreSQL here is a throw-away
// cluster of the test's own on a spare port (and Redis a redis-server of its own); the shared
// servers are never touched. About 10–15 s
// each on a quiet machine; the time limits leave room for a machine shared by many test runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDb } from '../db/index.ts';
import {
  killAll,
  ROOT,
  slowSpec,
  startHarnessWorker,
  until,
  waitForOutput,
} from '../testing/processes.ts';
import {
  startPostgres,
  startRedis,
  type ThrowawayPostgres,
  type ThrowawayRedis,
} from './fault-servers.ts';

const EPISODES = 10;

let pg: ThrowawayPostgres;
let redis: ThrowawayRedis;
/** The test's own view of the database (it rides out the restart too). */
let handle: DbHandle;
let dir: string;
const children: ChildProcess[] = [];
const workerErr: string[] = [];

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { REDIS_URL: _r, ...rest } = process.env;
  return { ...rest, DATABASE_URL: pg.url, RESUME_INTERVAL_MS: '2000', ...extra };
}

/** `harness rollout` as a child process; resolves its run id, stderr and exit status. */
function launch(args: string[], extraEnv: Record<string, string>) {
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
      ...args,
    ],
    { cwd: ROOT, env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(cli);
  const out = { stderr: '', stdout: '' };
  cli.stderr?.on('data', (d: Buffer) => {
    out.stderr += d.toString();
  });
  cli.stdout?.on('data', (d: Buffer) => {
    out.stdout += d.toString();
  });
  const exited = new Promise<number | null>((r) => cli.once('exit', r));
  const runId = waitForOutput(cli, 'stderr', /run (\S+): \d+ episodes on/);
  return { out, exited, runId };
}

/** Restarts the server once `min` episodes are recorded, down for `downMs`. */
async function restartMidRun(runId: string, min = 2, downMs = 2000): Promise<number> {
  const done = () => handle.db.episode.count({ where: { runId, status: 'done' } });
  await until('episodes done', async () => ((await done()) >= min ? true : undefined), 90_000);
  pg.stop();
  await new Promise((r) => setTimeout(r, downMs));
  pg.start();
  return done();
}

async function expectRecordedOnce(runId: string): Promise<void> {
  const db = handle.db;
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  expect(run.status).toBe('completed');
  expect(run.episodesDone).toBe(EPISODES);
  const episodes = await db.episode.findMany({ where: { runId } });
  expect(episodes.filter((e) => e.status === 'done')).toHaveLength(EPISODES);
  const ended = await db.runEvent.findMany({ where: { runId, type: 'episode_ended' } });
  expect(new Set(ended.map((e) => (e.payload as { episodeId: string }).episodeId)).size).toBe(
    EPISODES,
  );
  expect(ended).toHaveLength(EPISODES);
  expect(await db.runEvent.count({ where: { runId, type: 'run_completed' } })).toBe(1);
  const steps = await db.step.groupBy({
    by: ['episodeId'],
    where: { episode: { runId } },
    _count: true,
  });
  for (const e of episodes) expect(steps.find((s) => s.episodeId === e.id)?._count).toBe(e.steps);
}

function expectOneLineOutage(stderr: string): void {
  const lines = stderr.match(/database unavailable, retrying/g) ?? [];
  expect(lines.length, stderr).toBeGreaterThanOrEqual(1);
  expect(lines.length, stderr).toBeLessThanOrEqual(3);
  expect(stderr).toMatch(/database available again after/);
  expect(stderr).not.toMatch(/internal error/);
  // A SQLSTATE appears only in the status line.
  for (const line of stderr.split('\n').filter((l) => /57P0\d/.test(l))) {
    expect(line).toMatch(/database unavailable, retrying \(57P0\d/);
  }
  expect(stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  handle = await openDb(
    { kind: 'postgres', url: pg.url },
    { retry: { maxMs: 60_000, status: () => undefined } },
  );
  dir = mkdtempSync(path.join(tmpdir(), 'pg-restart-'));
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(slowSpec('eval_seen-001', 15)));
}, 60_000);

afterAll(async () => {
  killAll(children);
  await redis?.stop();
  await handle?.close();
  pg?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarted mid-run', () => {
  it('scale-out: the launching CLI and the workers ride it out; each episode recorded once', async () => {
    const t0 = performance.now();
    // The CLI launches on the default queue: on a Redis of the test's own, nothing else is on it.
    const worker = startHarnessWorker(['--inline', '--concurrency', '2', '--rigs', '0'], {
      REDIS_URL: redis.url,
      DATABASE_URL: pg.url,
    });
    children.push(worker.child);
    worker.child.stderr?.on('data', (d: Buffer) => workerErr.push(d.toString()));
    await worker.ready;
    const cli = launch(['--queue', 'bullmq', '--seed', '100'], { REDIS_URL: redis.url });
    const runId = await cli.runId;
    const atRestart = await restartMidRun(runId);
    expect(atRestart, 'the restart must land mid-run').toBeLessThan(EPISODES);
    expect(await cli.exited, cli.out.stderr).toBe(0);
    await expectRecordedOnce(runId);
    expectOneLineOutage(cli.out.stderr);
    expect(worker.child.exitCode, 'the worker survives').toBeNull();
    expect(workerErr.join('')).not.toMatch(/\n\s+at /);
    console.log(
      `pg restart (scale-out): restarted with ${atRestart}/${EPISODES} done; CLI exit 0, ${Math.round(performance.now() - t0)} ms`,
    );
  }, 150_000);

  it('embedded queue: the CLI executing a local run rides it out; each episode recorded once', async () => {
    const t0 = performance.now();
    const cli = launch(['--seed', '200', '--concurrency', '2'], {});
    const runId = await cli.runId;
    const atRestart = await restartMidRun(runId);
    expect(atRestart, 'the restart must land mid-run').toBeLessThan(EPISODES);
    expect(await cli.exited, cli.out.stderr).toBe(0);
    await expectRecordedOnce(runId);
    expectOneLineOutage(cli.out.stderr);
    console.log(
      `pg restart (local run): restarted with ${atRestart}/${EPISODES} done; CLI exit 0, ${Math.round(performance.now() - t0)} ms`,
    );
  }, 150_000);
});
