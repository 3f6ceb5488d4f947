// Embedded start-up recovery for real: a `harness rollout` process on an embedded database folder
// is SIGKILLed mid-run; a new process opens the folder, resumes, and every episode ends recorded
// exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { type DbHandle, openDb } from '../db/index.ts';
import { defaultEngine } from './default-engine.ts';
import type { Rollouts } from './service.ts';
import { testRollouts } from './testing.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'resume-'));
let handle: DbHandle | undefined;
let rollouts: Rollouts | undefined;

function embeddedEnv(): NodeJS.ProcessEnv {
  const { REDIS_URL: _r, DATABASE_URL: _d, ...rest } = process.env;
  return { ...rest, DATA_DIR: dir };
}

afterAll(async () => {
  await rollouts?.close();
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded resume after a killed process', () => {
  it('finishes the run of a SIGKILLed rollout exactly once', async () => {
    const k = 40;
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/harness.mjs'),
        'rollout',
        '--spec',
        'household:eval_seen-004',
        '--policy',
        'scripted:household-explorer',
        '--episodes',
        String(k),
        '--concurrency',
        '1',
      ],
      { cwd: ROOT, env: embeddedEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    // kill once a few episodes are recorded (the progress bar reports them)
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
        const m = /\] (\d+)\/\d+/g;
        let last = 0;
        for (const x of stderr.matchAll(m)) last = Number(x[1]);
        if (last >= 3) resolve();
      });
      child.once('exit', (code) => reject(new Error(`rollout exited early (${code}): ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
    rollouts = testRollouts(handle, defaultEngine(builtInBridges));
    const runs = await handle.db.run.findMany();
    expect(runs).toHaveLength(1);
    const runId = runs[0]!.id;
    const before = await handle.db.episode.count({ where: { runId, status: 'done' } });
    expect(before).toBeGreaterThanOrEqual(1);
    expect(before).toBeLessThan(k);

    expect(await rollouts.resumeUnfinishedRuns({ queue: 'local' })).toEqual([runId]);
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    expect(summary.episodesDone).toBe(k);
    const episodes = (await rollouts.listEpisodes(runId, { limit: 1000 })).items;
    expect(episodes.filter((e) => e.status === 'done')).toHaveLength(k);
    const ended = (await rollouts.events.list(runId, undefined, 10_000)).filter(
      (e) => e.type === 'episode_ended',
    );
    expect(new Set(ended.map((e) => (e.payload as { episodeId: string }).episodeId)).size).toBe(k);
    expect(ended).toHaveLength(k);
    const steps = await handle.db.step.groupBy({
      by: ['episodeId'],
      where: { episode: { runId } },
      _count: true,
    });
    for (const e of episodes)
      expect(steps.find((s) => s.episodeId === e.id)?._count ?? 0).toBe(e.steps);
  }, 180_000);
});
