import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../compose.ts';
import type { PrismaClient } from '../../db/generated/client.ts';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import type { HarnessSpec } from '../../harness/spec.ts';
import { callerFor, testServices } from '../../testing/services.ts';

const base = { type: 'base', bridge: 'household', task: 'eval_seen-004@scene0' } as const;
const stageSpec: HarnessSpec = {
  version: 1,
  env: {
    type: 'stage',
    actions: [{ name: 'act', args: { command: 'open fridge 1' } }],
    env: base,
  },
};
const contractSpec: HarnessSpec = {
  version: 1,
  env: { type: 'contract', code: 'export const maxSteps = 12;\n', env: stageSpec.env },
};

async function seedRig(db: PrismaClient) {
  const rig = await db.rig.create({
    data: {
      bridge: 'household',
      taskId: 'eval_seen-004@scene0',
      policy: 'scripted:household-no-transform',
      designer: 'heuristic',
      k: 5,
      maxIterations: 5,
      constraints: { band: [0.4, 0.6] },
      status: 'completed',
    },
  });
  const mk = (iteration: number, spec: HarnessSpec, extra: { writeError?: string } = {}) =>
    db.candidate.create({
      data: {
        rigId: rig.id,
        iteration,
        spec,
        rationale: `candidate ${iteration}`,
        decision: extra.writeError ? null : iteration === 1 ? 'accept' : 'refine',
        stats: { successRate: 0.4, template: 'hold-target' },
        ...extra,
      },
    });
  const broken = await mk(0, stageSpec, { writeError: 'set-up action rejected' });
  const first = await mk(1, stageSpec);
  const second = await mk(2, contractSpec);
  return { rig, broken, first, second };
}

/** A finished validation run of a candidate, with these episode outcomes. */
async function validate(
  db: PrismaClient,
  candidateId: string,
  outcomes: ('success' | 'failure' | 'error')[],
) {
  const run = await db.run.create({
    data: {
      kind: 'validation',
      policy: 'scripted:household-no-transform',
      spec: stageSpec,
      taskIds: ['eval_seen-004@scene0'],
      k: outcomes.length,
      seeds: outcomes.map((_, i) => i),
      maxSteps: 30,
      rewardParams: {},
      status: 'completed',
      episodesTotal: outcomes.length,
      episodesDone: outcomes.length,
    },
  });
  await db.episode.createMany({
    data: outcomes.map((outcome, i) => ({
      runId: run.id,
      taskId: 'eval_seen-004@scene0',
      seed: i,
      ordinal: i,
      status: 'done' as const,
      outcome,
    })),
  });
  await db.candidate.update({ where: { id: candidateId }, data: { validationRunId: run.id } });
  return run.id;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return e instanceof TRPCError ? e.code : `not a TRPCError: ${String(e)}`;
  }
}

describe('rigs router: a person reviews a candidate', () => {
  let handle: TestDb;
  let services: Services;
  // The embedded default's single user, whose id every decision records.
  let caller: ReturnType<typeof callerFor>;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    caller = callerFor(services);
  });
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('approving files the candidate in the task harness library, one harness per rig', async () => {
    const db = handle.db;
    const { rig, broken, first, second } = await seedRig(db);
    // First: validated inside the band (2 of 5), no errors: no reason needed.
    await validate(db, first.id, ['success', 'success', 'failure', 'failure', 'failure']);

    await expect(
      caller.rigs.review({ candidateId: broken.id, decision: 'approve', reason: 'anyway' }),
    ).rejects.toThrow('a candidate the environment rejected cannot be approved');

    const r1 = await caller.rigs.review({ candidateId: first.id, decision: 'approve' });
    expect(r1.by).toBe('local');
    expect(r1.harnessId).not.toBeNull();
    const harness = await db.harness.findUniqueOrThrow({
      where: { id: r1.harnessId ?? '' },
      include: { versions: true },
    });
    // Filed under the benchmark task (scene stripped), approved, its version the candidate's spec.
    expect(harness).toMatchObject({
      bridge: 'household',
      taskId: 'eval_seen-004',
      status: 'approved',
      createdBy: 'local',
    });
    expect(harness.versions).toHaveLength(1);
    expect(harness.versions[0]?.spec).toEqual(stageSpec);
    expect(harness.versions[0]?.id).toBe(r1.harnessVersionId);
    const linked = await db.candidate.findUniqueOrThrow({ where: { id: first.id } });
    expect(linked.harnessVersionId).toBe(r1.harnessVersionId);
    const approval = await db.approval.findUniqueOrThrow({ where: { id: r1.id } });
    expect(approval).toMatchObject({
      candidateId: first.id,
      harnessVersionId: r1.harnessVersionId,
      decision: 'approve',
      by: 'local',
    });

    // A decision is final: approving the same candidate again is refused, nothing is added.
    await expect(
      caller.rigs.review({ candidateId: first.id, decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    // Second: never validated, so approving it needs a reason; then it is the rig harness's v2.
    await expect(
      caller.rigs.review({ candidateId: second.id, decision: 'approve' }),
    ).rejects.toThrow('approving needs a reason: it has no validation run');
    const r2 = await caller.rigs.review({
      candidateId: second.id,
      decision: 'approve',
      reason: 'the step cap is the point',
    });
    expect(r2.harnessId).toBe(r1.harnessId);
    const versions = await db.harnessVersion.findMany({
      where: { harnessId: r1.harnessId ?? '' },
      orderBy: { version: 'asc' },
    });
    expect(versions.map((v) => [v.version, v.spec])).toEqual([
      [1, stageSpec],
      [2, contractSpec],
    ]);

    // The rig page shows where each candidate went in the library, and its decision.
    const view = await caller.rigs.byId({ id: rig.id });
    // The task as people read it comes from the bridge (displayTaskId), the pinned id stays.
    expect(view).toMatchObject({ taskId: 'eval_seen-004@scene0', displayTaskId: 'eval_seen-004' });
    const byId = new Map(view.candidates.map((c) => [c.id, c]));
    expect(byId.get(first.id)?.library).toEqual({
      harnessId: r1.harnessId,
      harnessVersionId: r1.harnessVersionId,
      version: 1,
    });
    expect(byId.get(first.id)?.gate).toMatchObject({ state: 'approved', concerns: [] });
    expect(byId.get(second.id)?.gate.current).toMatchObject({
      decision: 'approve',
      by: 'local',
      reason: 'the step cap is the point',
      concerns: ['it has no validation run'],
    });
    expect(byId.get(broken.id)?.library).toBeNull();
    expect(byId.get(broken.id)?.gate.state).toBe('pending');
    // The harness page shows the same decision on the version (one history for both).
    const h = await caller.harnesses.byId({ id: r1.harnessId ?? '' });
    expect(h.versions[0]?.gate.current?.id).toBe(r1.id);
  });

  it('a rejected candidate cannot then be approved; reversing it is a new decision', async () => {
    const db = handle.db;
    const { first, second } = await seedRig(db);
    await expect(
      caller.rigs.review({ candidateId: first.id, decision: 'reject' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    // Not in the library: the verdict is kept on the candidate alone.
    const r = await caller.rigs.review({
      candidateId: first.id,
      decision: 'reject',
      reason: 'the set-up gives the answer away',
    });
    expect(r.harnessId).toBeNull();
    expect(await db.approval.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({
      candidateId: first.id,
      harnessVersionId: null,
      decision: 'reject',
      reason: 'the set-up gives the answer away',
      by: 'local',
    });

    // The repro: approving it afterwards is refused, and nothing reaches the library.
    const harnesses = await db.harness.count();
    const again = caller.rigs.review({
      candidateId: first.id,
      decision: 'approve',
      reason: 'changed my mind',
    });
    await expect(again).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(again).rejects.toThrow(
      /is already rejected \(by local, .*"the set-up gives the answer away"\)/,
    );
    expect(await db.harness.count()).toBe(harnesses);
    expect(
      (await db.candidate.findUniqueOrThrow({ where: { id: first.id } })).harnessVersionId,
    ).toBeNull();

    // Reversing, with a reason, approves it: filed in the library, the rejection kept in history.
    const undo = await caller.rigs.reverse({
      candidateId: first.id,
      reason: 'the answer is not in the set-up',
      expectedCurrentId: r.id,
    });
    expect(undo).toMatchObject({ decision: 'approve', reversesId: r.id });
    expect(undo.harnessVersionId).not.toBeNull();
    const gate = (await caller.rigs.byId({ id: first.rigId })).candidates.find(
      (c) => c.id === first.id,
    )?.gate;
    expect(gate?.state).toBe('approved');
    expect(gate?.history.map((d) => d.decision)).toEqual(['approve', 'reject']);

    // In the library: reversing an approval takes the harness to "rejected", as on its page.
    const ok = await caller.rigs.review({
      candidateId: second.id,
      decision: 'approve',
      reason: 'fine',
    });
    await caller.rigs.reverse({ candidateId: second.id, reason: 'too easy' });
    const h = await db.harness.findUniqueOrThrow({ where: { id: ok.harnessId ?? '' } });
    expect(h.status).toBe('rejected');
    expect(await codeOf(caller.rigs.reverse({ candidateId: 'nope', reason: 'x' }))).toBe(
      'NOT_FOUND',
    );
  });

  it('approving a candidate whose validation run had errors, or left the band, needs a reason', async () => {
    const { first, second } = await seedRig(handle.db);
    const runId = await validate(handle.db, first.id, ['error', 'error', 'success', 'failure']);
    await validate(handle.db, second.id, ['success', 'success', 'success', 'success']);
    await expect(
      caller.rigs.review({ candidateId: first.id, decision: 'approve' }),
    ).rejects.toThrow(
      `approving needs a reason: 2 of 4 episodes of its validation run ${runId.slice(-8)} ended in errors`,
    );
    await expect(
      caller.rigs.review({ candidateId: second.id, decision: 'approve' }),
    ).rejects.toThrow('its success rate 100% (4/4) is outside the band 40%–60%');
    const ok = await caller.rigs.review({
      candidateId: first.id,
      decision: 'approve',
      reason: 'the errors are a flaky bridge, not the hook',
    });
    expect(ok.concerns).toEqual([
      `2 of 4 episodes of its validation run ${runId.slice(-8)} ended in errors`,
    ]);
  });

  it('launch answers with the id of a queued rig the rig queue runs; byId follows it', async () => {
    const { rigId } = await caller.rigs.launch({
      task: 'household:eval_seen-004',
      policy: 'scripted:household-no-transform',
      maxIterations: 1,
    });
    const early = await caller.rigs.byId({ id: rigId });
    expect(['queued', 'running']).toContain(early.status);
    expect(early.constraints.band).toEqual([0.4, 0.6]);
    await services.rigs.whenIdle();
    const done = await caller.rigs.byId({ id: rigId });
    expect(done.status).toBe('completed');
    expect(done.baselineRunId).not.toBeNull();
    expect(done.diagnoses.map((d) => d.label)).toEqual(['skips-required-transformation']);
    expect(done.candidates).toHaveLength(1);
    expect(done.candidates[0]?.decision).not.toBeNull();
    await expect(
      caller.rigs.launch({
        task: 'household:no-such-task',
        policy: 'scripted:household-no-transform',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers NOT_FOUND for an unknown candidate', async () => {
    await expect(
      callerFor(services).rigs.review({ candidateId: 'nope', decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
