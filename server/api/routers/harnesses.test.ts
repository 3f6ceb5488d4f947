// The approval gate on harness-library versions, through the real router (createCaller) on a real
// embedded database: a decision is final, a reversal is a new decision with a reason, approving
// needs a reason when the validation run gives cause (none, errors), and in team mode a decision
// and its audit row are stored together or not at all.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller } from '../../auth/caller.ts';
import type { Services } from '../../compose.ts';
import type { PrismaClient } from '../../db/generated/client.ts';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import type { HarnessSpec } from '../../harness/spec.ts';
import { callerFor, testServices } from '../../testing/services.ts';

const spec: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'household', task: 'eval_seen-004' },
};

/** A validation run of a version with the given episode outcomes, as the recorder leaves it. */
async function validationRun(
  db: PrismaClient,
  harnessVersionId: string,
  outcomes: ('success' | 'failure' | 'error')[],
) {
  const run = await db.run.create({
    data: {
      kind: 'validation',
      policy: 'scripted:household-no-open',
      harnessVersionId,
      spec,
      taskIds: ['eval_seen-004'],
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
      taskId: 'eval_seen-004',
      seed: i,
      ordinal: i,
      status: 'done' as const,
      outcome,
      ...(outcome === 'error'
        ? { errorKind: 'harness' as const, errorMessage: 'hook threw: boom' }
        : {}),
    })),
  });
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

describe('harnesses router: the approval gate on a version', () => {
  let handle: TestDb;
  let services: Services;
  let caller: ReturnType<typeof callerFor>;
  const newVersion = async (name: string) =>
    (await caller.harnesses.create({ name, spec })).version.id;

  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    caller = callerFor(services);
  }, 60_000);
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('a version with no validation run needs a reason to approve, and the gate says why', async () => {
    const v = await newVersion('unvalidated');
    const gate = await caller.harnesses.gate({ harnessVersionId: v });
    expect(gate).toMatchObject({ state: 'pending', current: null, validationRunId: null });
    expect(gate.concerns.map((c) => c.code)).toEqual(['no_validation_run']);

    await expect(
      caller.harnesses.decide({ harnessVersionId: v, decision: 'approve' }),
    ).rejects.toThrow('approving needs a reason: it has no validation run');
    expect(await handle.db.approval.count({ where: { harnessVersionId: v } })).toBe(0);

    const ok = await caller.harnesses.decide({
      harnessVersionId: v,
      decision: 'approve',
      reason: 'a set-up only; validated by hand',
    });
    expect(ok).toMatchObject({ decision: 'approve', by: 'local', reversesId: null });
    // The record keeps what the reason answered.
    expect(ok.concerns).toEqual(['it has no validation run']);
  });

  it('approving a version whose only run was 4 of 4 harness errors needs a reason', async () => {
    const v = await newVersion('broken hook');
    const runId = await validationRun(handle.db, v, ['error', 'error', 'error', 'error']);
    const gate = await caller.harnesses.gate({ harnessVersionId: v });
    expect(gate.validationRunId).toBe(runId);
    expect(gate.concerns).toEqual([
      {
        code: 'validation_errors',
        message: `4 of 4 episodes of its validation run ${runId.slice(-8)} ended in errors`,
      },
    ]);
    await expect(
      caller.harnesses.decide({ harnessVersionId: v, decision: 'approve', reason: '   ' }),
    ).rejects.toThrow(/approving needs a reason: 4 of 4 episodes/);
    const byId = await caller.harnesses.byId({
      id: (await handle.db.harnessVersion.findUniqueOrThrow({ where: { id: v } })).harnessId,
    });
    expect(byId.versions[0]?.gate.state).toBe('pending');
    expect(byId.status).toBe('draft');
  });

  it('a clean run needs no reason; the gate looks at the run the page picked', async () => {
    const v = await newVersion('clean');
    const clean = await validationRun(handle.db, v, ['success', 'failure']);
    const newer = await validationRun(handle.db, v, ['error', 'success']);
    // The newest run by default, the picked one when asked.
    expect((await caller.harnesses.gate({ harnessVersionId: v })).validationRunId).toBe(newer);
    expect(
      (await caller.harnesses.gate({ harnessVersionId: v, validationRunId: clean })).concerns,
    ).toEqual([]);
    const other = await validationRun(handle.db, await newVersion('other'), ['success']);
    expect(
      await codeOf(caller.harnesses.gate({ harnessVersionId: v, validationRunId: other })),
    ).toBe('BAD_REQUEST');
    const r = await caller.harnesses.decide({
      harnessVersionId: v,
      decision: 'approve',
      validationRunId: clean,
    });
    expect(r).toMatchObject({ decision: 'approve', reason: '', concerns: [] });
  });

  it('a decision is final: a second one is refused, a reversal is a new decision', async () => {
    const v = await newVersion('reversible');
    await validationRun(handle.db, v, ['success', 'failure']);
    const first = await caller.harnesses.decide({
      harnessVersionId: v,
      decision: 'reject',
      reason: 'observations too terse',
    });
    // Neither verdict may be given again.
    for (const decision of ['approve', 'reject'] as const) {
      const again = caller.harnesses.decide({ harnessVersionId: v, decision, reason: 'x' });
      await expect(again).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(again).rejects.toThrow(
        /is already rejected \(by local, .*"observations too terse"\); a decision is final/,
      );
    }
    expect(await codeOf(caller.harnesses.reverse({ harnessVersionId: v, reason: '' }))).toBe(
      'BAD_REQUEST',
    );
    // A reversal made on a stale view of the decision is refused.
    expect(
      await codeOf(
        caller.harnesses.reverse({ harnessVersionId: v, reason: 'x', expectedCurrentId: null }),
      ),
    ).toBe('CONFLICT');

    const undo = await caller.harnesses.reverse({
      harnessVersionId: v,
      reason: 'terse is what the task needs',
      expectedCurrentId: first.id,
    });
    expect(undo).toMatchObject({ decision: 'approve', reversesId: first.id });
    const gate = await caller.harnesses.gate({ harnessVersionId: v });
    expect(gate.state).toBe('approved');
    expect(gate.current?.id).toBe(undo.id);
    // The history keeps both, newest first: the rejection and its reason are not lost.
    expect(gate.history.map((d) => [d.decision, d.reason])).toEqual([
      ['approve', 'terse is what the task needs'],
      ['reject', 'observations too terse'],
    ]);
    // A decision is reversed at most once; the reversal itself can be reversed.
    const again = await caller.harnesses.reverse({ harnessVersionId: v, reason: 'no after all' });
    expect(again).toMatchObject({ decision: 'reject', reversesId: undo.id });
    const h = await handle.db.harnessVersion.findUniqueOrThrow({
      where: { id: v },
      select: { harness: { select: { status: true } } },
    });
    expect(h.harness.status).toBe('rejected');
  });

  it('two decisions at once: exactly one is recorded', async () => {
    const v = await newVersion('race');
    const results = await Promise.allSettled([
      caller.harnesses.decide({ harnessVersionId: v, decision: 'approve', reason: 'a' }),
      caller.harnesses.decide({ harnessVersionId: v, decision: 'reject', reason: 'b' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await handle.db.approval.count({ where: { harnessVersionId: v } })).toBe(1);
  });

  it('answers NOT_FOUND for an unknown version', async () => {
    expect(await codeOf(caller.harnesses.gate({ harnessVersionId: 'nope' }))).toBe('NOT_FOUND');
    expect(await codeOf(caller.harnesses.reverse({ harnessVersionId: 'nope', reason: 'x' }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('team mode: a decision and its audit row in one transaction', () => {
  let handle: TestDb;
  let services: Services;
  let member: ReturnType<typeof callerFor>;
  let userId = '';
  let projectId = '';

  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle, {
      config: { AUTH_SECRET: 'test-secret-for-team-mode-0123456789abcdef' },
    });
    const accounts = services.accounts;
    userId = (await accounts.createUser({ email: 'r@x.test', password: 'researcher-pass' })).id;
    projectId = (await accounts.createProject({ name: 'Gate', by: userId })).id;
    await accounts.addMember({ userId, projectId, role: 'researcher', by: userId });
    const { token } = await accounts.signIn('r@x.test', 'researcher-pass');
    member = callerFor(services, await resolveCaller(accounts, { sessionToken: token }));
  }, 60_000);
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('records the decision with its audit row, once', async () => {
    const v = (await member.harnesses.create({ name: 'audited', spec })).version.id;
    const d = await member.harnesses.decide({
      harnessVersionId: v,
      decision: 'reject',
      reason: 'gives the answer away',
    });
    const rows = await handle.db.auditLog.findMany({ where: { action: 'harnesses.decide' } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: userId, projectId, target: v });
    expect(rows[0]?.details).toMatchObject({ decision: 'reject', reason: 'gives the answer away' });
    await member.harnesses.reverse({
      harnessVersionId: v,
      reason: 'it does not',
      expectedCurrentId: d.id,
    });
    const reversal = await handle.db.auditLog.findFirstOrThrow({
      where: { action: 'harnesses.reverse' },
    });
    expect(reversal.details).toMatchObject({ decision: 'approve', reverses: d.id });
  });

  it('when the audit row cannot be written, the decision is not stored either', async () => {
    const v = (await member.harnesses.create({ name: 'surrogate', spec })).version.id;
    // A lone surrogate: the Approval's text column takes it, the audit's JSON does not.
    const code = await codeOf(
      member.harnesses.decide({ harnessVersionId: v, decision: 'reject', reason: 'x\ud800' }),
    );
    expect(code).not.toBe('OK');
    expect(await handle.db.approval.count({ where: { harnessVersionId: v } })).toBe(0);
    expect((await member.harnesses.gate({ harnessVersionId: v })).state).toBe('pending');
    const h = await handle.db.harnessVersion.findUniqueOrThrow({
      where: { id: v },
      select: { harness: { select: { status: true } } },
    });
    expect(h.harness.status).toBe('draft');
  });
});
