// What the recorder stores is what the episode produced: every step field and the episode's
// result survive the batch statement (JSON-encoded rows read back with jsonb_to_recordset, commands
// interned: step-rows.ts) as they were, on both databases and on PGlite's direct path.
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestDbKind, truncateAll, withTestDb } from '../db/testing.ts';
import type { StepRecord } from '../harness/types.ts';
import { RunEvents } from './events.ts';
import { readTrajectory } from './reads.ts';
import { EpisodeRecorder } from './recorder.ts';
import { encodeSteps } from './step-rows.ts';
import type { EpisodeResult } from './types.ts';

const odd = 'quotes " and \\ backslash, a tab\t, a newline\n, unicode é 漢字 🙂, </script>';

const steps: StepRecord[] = [
  {
    index: 0,
    action: { name: 'act', args: { command: `go to ${odd}`, n: 0.1 + 0.2, big: 1e21 } },
    executedAction: { name: 'act', args: { command: 'go to countertop 1' } },
    rawObservation: { text: odd, data: { nested: [1, { deep: null }], flag: true } },
    observation: { text: 'You arrive at countertop 1.', data: { x: -2.5 } },
    reward: 0.125,
    terminated: false,
    truncated: false,
    info: {
      admissibleCommands: ['look', odd, 'go to countertop 1'],
      admissible: ['look', 'inventory', odd],
      invalid: false,
      won: false,
    },
    invalid: false,
    changes: [
      { layer: 'contract', component: 'contract', what: 'observation', before: odd, after: 'x' },
    ],
    leg: 1,
    state: { agent: { holding: null } },
    meta: { note: odd },
    llm: {
      mode: 'tools',
      usage: { prompt: 10, completion: 3, cached: 0, requests: 1 },
      reply: odd,
    },
  } as unknown as StepRecord,
  {
    index: 1,
    action: { name: '__invalid__', args: { raw: odd, reason: 'no' } },
    executedAction: null,
    rawObservation: null,
    observation: { text: 'Invalid action: no' },
    reward: -1.5e-7,
    terminated: true,
    truncated: false,
    info: {},
    invalid: true,
    blocked: 'Nothing happens.',
    changes: [],
  },
  {
    // Executed as chosen and shown as the environment said it: the same fields travel once.
    index: 2,
    action: { name: 'act', args: { command: 'look' } },
    executedAction: { name: 'act', args: { command: 'look' } },
    rawObservation: { text: `You see ${odd}` },
    observation: { text: `You see ${odd}` },
    reward: 0,
    terminated: false,
    truncated: true,
    info: { admissibleCommands: ['inventory', 'look', 'inventory', odd], invalid: false },
    invalid: false,
    changes: [],
  },
  {
    index: 3,
    action: { name: 'act', args: { command: 'look' } },
    executedAction: { name: 'act', args: { command: 'look' } },
    rawObservation: { text: 'before' },
    observation: { text: 'after' },
    reward: 1,
    terminated: true,
    truncated: false,
    info: { admissibleCommands: [] },
    invalid: false,
    changes: [],
  },
];

const result: EpisodeResult = {
  outcome: 'failure',
  failureCategory: 'wrong_final_state',
  steps: 4,
  invalidActions: 1,
  envReward: 0.125,
  durationMs: 12.6,
  trajectory: steps,
  taskId: 'task-1',
  seed: 3,
  evaluation: { success: false, score: 0.25, metrics: { goal: 0.5 } },
  reward: { total: -2.75, success: 0, efficiency: 0.1, diversity: 0, spam: 0, invalid: 1 },
  initialObservation: odd,
} as unknown as EpisodeResult;

describe.each<TestDbKind>(['pglite', 'postgres'])('episode recorder on %s', (kind) => {
  const db = withTestDb(kind);
  beforeEach(async () => truncateAll(db()));

  /** A run of one episode, queued, and a recorder. */
  async function oneEpisode() {
    const run = await db().run.create({
      data: { policy: 'p', spec: {}, k: 1, maxSteps: 50, rewardParams: {}, episodesTotal: 1 },
    });
    const episode = await db().episode.create({
      data: { runId: run.id, taskId: 'task-1', seed: 3, ordinal: 0 },
    });
    const recorder = new EpisodeRecorder('w', { db: db(), events: new RunEvents(db()) });
    return { run, episode, recorder };
  }

  it('stores every step field and the result as the episode produced them', async () => {
    const { run, episode, recorder } = await oneEpisode();
    const claimed = await recorder.claim({ id: episode.id, runId: run.id });
    expect(claimed?.attempt).toBe(1);
    const won = await recorder.record({ id: episode.id, runId: run.id, attempt: 1, result });
    expect(won).toBe(true);

    expect(await readTrajectory(db(), episode.id)).toEqual(steps);
    // Stored interned: each distinct command once, in the episode; a step's as indices into it.
    const stored = await db().step.findMany({
      where: { episodeId: episode.id },
      orderBy: { index: 'asc' },
      select: { info: true, commands: true, executedAction: true, rawObservation: true },
    });
    expect(stored.map((s) => s.commands)).toEqual(['0,1,2', null, '3,0,3,1', '']);
    expect(stored.map((s) => 'admissibleCommands' in (s.info as object))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(stored[2]).toMatchObject({
      executedAction: { name: 'act', args: { command: 'look' } },
      rawObservation: `You see ${odd}`,
    });
    const e = await db().episode.findUniqueOrThrow({ where: { id: episode.id } });
    expect(e).toMatchObject({
      status: 'done',
      outcome: 'failure',
      failureCategory: 'wrong_final_state',
      steps: 4,
      reward: -2.75,
      commandTable: ['look', odd, 'go to countertop 1', 'inventory'],
      durationMs: 13,
      evaluation: result.evaluation,
      initialObservation: odd,
      costReward: { ...result.reward, invalidActions: 1, envReward: 0.125 },
    });
    const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r).toMatchObject({ status: 'completed', episodesDone: 1, episodesFailed: 1 });
  });

  it('stores steps a worker thread encoded as it stores the steps themselves, in one batch', async () => {
    const run = await db().run.create({
      data: { policy: 'p', spec: {}, k: 2, maxSteps: 50, rewardParams: {}, episodesTotal: 2 },
    });
    const [plain, encoded] = await Promise.all(
      [0, 1].map((ordinal) =>
        db().episode.create({ data: { runId: run.id, taskId: 'task-1', seed: ordinal, ordinal } }),
      ),
    );
    if (!plain || !encoded) throw new Error('no episodes');
    const recorder = new EpisodeRecorder('w', { db: db(), events: new RunEvents(db()) });
    await recorder.claimMany([plain, encoded].map((e) => ({ id: e.id, runId: run.id })));
    const fromWorker = { ...result, trajectory: [], encodedSteps: encodeSteps(steps) };
    const flushes = recorder.stats.flushes;
    const won = await Promise.all([
      recorder.record({ id: plain.id, runId: run.id, attempt: 1, result }),
      recorder.record({ id: encoded.id, runId: run.id, attempt: 1, result: fromWorker }),
    ]);
    expect(won).toEqual([true, true]);
    expect(recorder.stats.flushes - flushes).toBe(1); // both results in one batch
    for (const e of [plain, encoded]) expect(await readTrajectory(db(), e.id)).toEqual(steps);
  });

  it('writes the steps of the winning attempt only when a stale one shares its batch', async () => {
    const { run, episode, recorder } = await oneEpisode();
    await recorder.claim({ id: episode.id, runId: run.id });
    expect((await recorder.claim({ id: episode.id, runId: run.id }))?.attempt).toBe(2);
    const stale = { ...result, trajectory: steps.slice(0, 1) };
    const flushes = recorder.stats.flushes;
    const won = await Promise.all([
      recorder.record({ id: episode.id, runId: run.id, attempt: 1, result: stale }),
      recorder.record({ id: episode.id, runId: run.id, attempt: 2, result }),
    ]);
    expect(recorder.stats.flushes - flushes).toBe(1);
    expect(won).toEqual([false, true]);
    expect(await readTrajectory(db(), episode.id)).toEqual(steps);
    const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(r).toMatchObject({ status: 'completed', episodesDone: 1 });
  });
});
