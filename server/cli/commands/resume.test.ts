// `harness resume --run ID` on an embedded database: a run a dead process left half done (one
// episode claimed by it, one never started) is finished in this process, each episode recorded once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices } from '../../compose.ts';
import { type Config, config } from '../../config.ts';
import { openDb } from '../../db/index.ts';
import { sparePort } from '../../hardening/fault-servers.ts';
import { inProcessEngine } from '../../rollouts/default-engine.ts';
import { runCli } from '../testing.ts';

let dir: string;
let cfg: Config;
// Episodes on the main thread (inProcessEngine): the command is under test, not the worker pool.
const cli = (...argv: string[]) =>
  runCli(argv, {
    config: cfg,
    compose: (o) => composeServices({ ...o, engine: inProcessEngine }),
  });

/** The rows a `harness rollout` killed mid-run leaves: the run running, an episode claimed. */
async function strandedRun(status: 'running' | 'cancelled' = 'running'): Promise<string> {
  const h = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  try {
    const run = await h.db.run.create({
      data: {
        policy: 'scripted:household-explorer',
        spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-003' } },
        taskIds: ['eval_seen-003'],
        k: 2,
        seeds: [7, 8],
        maxSteps: 50,
        queue: 'local',
        rewardParams: {},
        episodesTotal: 2,
        status,
        startedAt: new Date(),
      },
    });
    await h.db.episode.createMany({
      data: [
        {
          runId: run.id,
          taskId: 'eval_seen-003',
          seed: 7,
          ordinal: 0,
          status: 'running',
          attempt: 1,
          workerId: 'dead',
        },
        { runId: run.id, taskId: 'eval_seen-003', seed: 8, ordinal: 1 },
      ],
    });
    return run.id;
  } finally {
    await h.close();
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-resume-'));
  cfg = { ...config(), DATA_DIR: dir, REDIS_URL: undefined, DATABASE_URL: undefined };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('harness resume', () => {
  it('finishes a stranded local run: every episode recorded once, report printed', async () => {
    const runId = await strandedRun();
    const r = await cli('resume', '--run', runId, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.runId).toBe(runId);
    expect(out.status).toBe('completed');
    expect(out.episodes.map((e: { seed: number }) => e.seed)).toEqual([7, 8]);

    const h = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
    try {
      const run = await h.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(run.episodesDone).toBe(2);
      const episodes = await h.db.episode.findMany({
        where: { runId },
        orderBy: { ordinal: 'asc' },
      });
      // The dead process's attempt is superseded: its late result could no longer be recorded.
      expect(episodes.map((e) => [e.status, e.attempt])).toEqual([
        ['done', 2],
        ['done', 1],
      ]);
      const ended = await h.db.runEvent.count({ where: { runId, type: 'episode_ended' } });
      expect(ended).toBe(2);
    } finally {
      await h.close();
    }

    // Resuming a finished run changes nothing and says so.
    const again = await cli('resume', '--run', runId);
    expect(again.code).toBe(0);
    expect(again.err).toContain(`run ${runId} is already completed`);
    expect(again.out).toContain('success rate');
  }, 120_000);

  it('refuses a cancelled run, an unknown run and a missing --run', async () => {
    const cancelled = await strandedRun('cancelled');
    const c = await cli('resume', '--run', cancelled);
    expect(c.code).toBe(1);
    expect(c.err).toBe(`harness: run ${cancelled} is cancelled: nothing to resume\n`);
    const unknown = await cli('resume', '--run', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/not found/);
    const missing = await cli('resume');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--run is required/);
  }, 120_000);

  it('a database that stays away longer than DB_RETRY_MS: one line, exit 1, no internal error', async () => {
    const port = await sparePort(); // nobody listens: ECONNREFUSED at every try
    const r = await runCli(['resume', '--run', 'x'], {
      config: {
        ...cfg,
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/x`,
        DB_RETRY_MS: 300,
      },
    });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^harness: database unavailable \(ECONNREFUSED[^\n]*\)\n$/);
  });
});
