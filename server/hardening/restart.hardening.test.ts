// Faults: the studio process is SIGKILLed mid-run (episodes running, events half streamed); a new
// process resumes unfinished runs at start. Every episode ends recorded exactly once, the run
// completes, and a live viewer that reconnects with its last event id misses nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { Rollouts } from '../rollouts/service.ts';
import { counterEngine, testRollouts } from '../rollouts/testing.ts';

const FIXTURE = fileURLToPath(new URL('./restart-child.fixture.ts', import.meta.url));
const EPISODES = 60;

let handle: TestDb;
let child: ChildProcess | undefined;
/** This process: the studio that starts after the killed one. */
let rollouts: Rollouts;

beforeAll(async () => {
  handle = await createTestDb('postgres');
  rollouts = testRollouts(handle, counterEngine({ delayMs: 5 }));
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await rollouts.close();
  await handle.close();
});

describe('server restart mid-run (embedded queue)', () => {
  it('re-queues unfinished episodes: each recorded once, run completes, viewer resumes gap-free', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, handle.url!, String(EPISODES)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const runId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /run (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${stderr}`)));
    });

    // A live viewer in another process (the browser) follows the run while the server dies.
    const abort = new AbortController();
    const before: string[] = [];
    const viewer = (async () => {
      for await (const e of rollouts.events.subscribe(runId, undefined, {
        signal: abort.signal,
        pollMs: 100,
      })) {
        before.push(e.id);
      }
    })();

    // Kill once some episodes are done and others are running.
    for (;;) {
      const done = await handle.db.episode.count({ where: { runId, status: 'done' } });
      if (done >= 5) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    abort.abort();
    await viewer;
    const states = await handle.db.episode.groupBy({
      by: ['status'],
      where: { runId },
      _count: true,
    });
    const unfinished = states.filter((s) => s.status !== 'done').reduce((n, s) => n + s._count, 0);
    expect(unfinished, 'the kill must land mid-run').toBeGreaterThan(0);

    // The next process starts: unfinished runs are resumed; the viewer reconnects from its last id.
    expect(await rollouts.resumeUnfinishedRuns({ queue: 'local' })).toContain(runId);
    const after: string[] = [];
    const resumed = (async () => {
      for await (const e of rollouts.events.subscribe(runId, before.at(-1), {
        untilCompleted: true,
        pollMs: 100,
      })) {
        after.push(e.id);
      }
    })();
    const summary = await rollouts.waitForRun(runId);
    await resumed;

    expect(summary.status).toBe('completed');
    const episodes = await handle.db.episode.findMany({ where: { runId } });
    expect(episodes).toHaveLength(EPISODES);
    expect(episodes.every((e) => e.status === 'done' && e.outcome !== null)).toBe(true);
    expect(new Set(episodes.map((e) => e.seed)).size).toBe(EPISODES);

    const stored = await rollouts.events.listAll(runId);
    const ended = stored.filter((e) => e.type === 'episode_ended');
    // Exactly once: one episode_ended per episode, none for a dead attempt.
    expect(ended).toHaveLength(EPISODES);
    const endedFor = ended.map((e) => (e.payload as { episodeId?: string }).episodeId);
    expect(new Set(endedFor).size).toBe(EPISODES);
    expect(stored.filter((e) => e.type === 'run_completed')).toHaveLength(1);

    // The viewer saw every stored event exactly once across the restart.
    const seen = [...before, ...after];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(stored.map((e) => e.id));
    console.log(
      `restart: killed with ${unfinished} of ${EPISODES} episodes unfinished; after resume ${episodes.length} recorded once, ` +
        `${stored.length} events, viewer ${before.length} before + ${after.length} after the restart, 0 missed`,
    );
  }, 180_000);
});
