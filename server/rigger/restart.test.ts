// The acceptance: a killed studio resumes a rig mid-way. A studio process (the fixture:
// the real composition, embedded queues, PostgreSQL) launches a rig and is SIGKILLed while a
// candidate validates; the next studio's start-up resume finishes the rig. Each iteration is
// recorded once, each validation run once (every episode once), one baseline — and the rig decides
// what an uninterrupted rig of the same settings decides (the heuristic designer is deterministic).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { until, waitForOutput } from '../testing/processes.ts';
import { testServices } from '../testing/services.ts';
import { type RigInput, runRig } from './loop.ts';
import { getRig } from './service.ts';

const FIXTURE = fileURLToPath(new URL('./testing/restart-child.fixture.ts', import.meta.url));
const K = 5;
const INPUT: RigInput = {
  task: 'household:eval_seen-004',
  policy: 'scripted:household-no-transform',
  designer: 'heuristic',
  band: [0.4, 0.6],
  k: K,
};
/** Per episode in the killed studio, one episode at a time: a validation takes ~3 s there. */
const DELAY_MS = 600;

let handle: TestDb;
let child: ChildProcess | undefined;
/** This process: the studio that starts after the killed one. */
let services: Services;

beforeAll(async () => {
  handle = await createTestDb('postgres');
  services = await testServices(handle, { config: { REDIS_URL: undefined } });
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await services?.close();
  await handle?.close();
});

function startStudio(): Promise<string> {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, handle.url ?? '', JSON.stringify(INPUT), String(DELAY_MS)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return waitForOutput(child, 'stdout', /rig (\S+)\n/);
}

/** Mid-rig: a candidate decided, the next one's validation run recorded with some episodes done. */
async function midValidation(rigId: string) {
  const db = handle.db;
  const rows = await db.candidate.findMany({ where: { rigId }, orderBy: { iteration: 'asc' } });
  const decided = rows.filter((c) => c.decision !== null).length;
  const open = rows.find((c) => c.decision === null && c.validationRunId !== null);
  if (decided < 1 || !open?.validationRunId) return undefined;
  const done = await db.episode.count({ where: { runId: open.validationRunId, status: 'done' } });
  return done >= 1
    ? { decided, runId: open.validationRunId, iteration: open.iteration }
    : undefined;
}

describe('studio restart mid-rig (embedded queues, PostgreSQL)', () => {
  it('resumes the rig: each iteration, validation run and baseline recorded once; same result', async () => {
    const db = handle.db;
    const rigId = await startStudio();
    const at = await until('a candidate mid-validation', () => midValidation(rigId));
    child?.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));

    const killed = await db.rig.findUniqueOrThrow({ where: { id: rigId } });
    expect(killed.status, 'the kill must land mid-rig').toBe('running');
    const unfinished = await db.episode.count({
      where: { runId: at.runId, status: { not: 'done' } },
    });
    expect(unfinished, 'the kill must land mid-validation').toBeGreaterThan(0);

    // The next studio starts: runs first, then the rig, which waits for them.
    const started = performance.now();
    const resumed = await services.resumeUnfinished();
    expect(resumed.rigs).toEqual([rigId]);
    expect(resumed.runs).toContain(at.runId);
    // As the studio does: poll rigs.byId until the rig is done.
    const view = await until('the resumed rig to finish', async () => {
      const v = await getRig(services.rigDeps(), rigId);
      return v.status === 'completed' || v.status === 'failed' ? v : undefined;
    });
    const resumeMs = Math.round(performance.now() - started);
    expect(view.error).toBeNull();
    expect(view.status).toBe('completed');

    // Every (round, iteration) once, numbered without gaps, each decided.
    const keys = view.candidates.map((c) => `${c.round}:${c.iteration}`);
    expect(keys).toEqual(view.candidates.map((_, i) => `0:${i}`));
    expect(view.candidates.every((c) => c.decision !== null)).toBe(true);
    // Each validation run once, completed, each episode recorded once.
    const validations = await db.run.findMany({ where: { kind: 'validation' } });
    const linked = view.candidates.map((c) => c.validationRunId).filter((id) => id !== null);
    expect(validations.map((r) => r.id).sort()).toEqual([...linked].sort());
    for (const run of validations) {
      expect(run.status).toBe('completed');
      expect(run.episodesDone).toBe(K);
      const ended = (await services.rollouts.events.list(run.id, undefined, 1000)).filter(
        (e) => e.type === 'episode_ended',
      );
      const episodes = ended.map((e) => (e.payload as { episodeId: string }).episodeId);
      expect(episodes).toHaveLength(K);
      expect(new Set(episodes).size).toBe(K);
    }
    // One baseline, the one the rig links, and one diagnosis.
    const baselines = await db.run.findMany({ where: { kind: 'baseline' } });
    expect(baselines.map((r) => r.id)).toEqual([view.baselineRunId]);
    expect(baselines[0]?.status).toBe('completed');
    expect(view.diagnoses).toHaveLength(1);

    // What an uninterrupted rig of the same settings decides (its baseline is the cached one).
    const reference = await runRig(services.rigDeps(), INPUT);
    expect(view.diagnoses[0]?.label).toBe(reference.diagnosis.label);
    expect(
      view.candidates.map((c) => ({
        spec: c.spec,
        decision: c.decision,
        successRate: c.stats?.successRate ?? null,
      })),
    ).toEqual(
      reference.iterations.map((i) => ({
        spec: i.candidate.spec,
        decision: i.decision,
        successRate: i.validation?.successRate ?? null,
      })),
    );
    const accepted = view.candidates.find((c) => c.id === view.acceptedCandidateId);
    expect(accepted?.spec).toEqual(reference.accepted);
    console.log(
      `rig restart: killed with ${at.decided} iteration(s) decided and iteration ${at.iteration + 1} ` +
        `validating (${unfinished}/${K} episodes unfinished); after resume ${view.candidates.length} ` +
        `iteration(s), each once, finished in ${resumeMs} ms`,
    );
  }, 240_000);
});
