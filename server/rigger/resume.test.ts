// executeRig() rebuilds a rig's progress from its rows: a finished rig re-executed writes nothing; a
// rig stopped mid-way (its validation or baseline launched, not waited for) or left with an
// undecided candidate finishes with each iteration recorded once, one run per candidate and one
// baseline — and decides exactly what an uninterrupted rig of the same settings decides.
import { describe, expect, it } from 'vitest';
import { rowCounts } from '../db/testing.ts';
import { HeuristicDesigner } from './designers/heuristic/index.ts';
import { createRig, executeRig, type RigInput, type RigResult, runRig } from './loop.ts';
import { RigStoppedError, rigRunId } from './observe.ts';
import { withRigServices } from './testing/setup.ts';
import type { CandidateDraft, DesignContext, DiagnosisReport } from './types.ts';

const env = withRigServices();
const db = () => env().db;
const deps = () => env().services.rigDeps();

// A rig that refines once and accepts its second candidate (the explorer masters the task; a
// glance that misses objects lands it in the band on the second knob value).
const INPUT: RigInput = {
  task: 'household:eval_seen-007',
  policy: 'scripted:household-explorer',
};

/** The heuristic designer, counting what it is asked: a resumed rig never asks again. */
class CountingDesigner extends HeuristicDesigner {
  diagnoses = 0;
  writes = 0;
  override diagnose(ctx: DesignContext): Promise<DiagnosisReport> {
    this.diagnoses += 1;
    return super.diagnose(ctx);
  }
  override write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    this.writes += 1;
    return super.write(ctx);
  }
}

/** What a person reads off a rig: the diagnosis, each iteration's candidate, numbers and decision. */
function outcome(r: RigResult) {
  return {
    diagnosis: r.diagnosis.label,
    iterations: r.iterations.map((it) => ({
      spec: it.candidate.spec,
      writeError: it.writeError ?? null,
      successRate: it.validation?.successRate ?? null,
      decision: it.decision,
      feedback: it.feedback,
    })),
    accepted: r.accepted,
  };
}

/** Every Candidate of the rig once per (round, iteration), numbered without gaps, each validation
 * run the rig named and nothing else, each with K recorded episodes. */
async function expectRecordedOnce(rigId: string, k = 5) {
  const rows = await db().candidate.findMany({
    where: { rigId },
    orderBy: [{ round: 'asc' }, { iteration: 'asc' }],
  });
  expect(rows.map((c) => c.iteration)).toEqual(rows.map((_, i) => i));
  expect(rows.every((c) => c.decision !== null)).toBe(true);
  const validated = rows.filter((c) => c.validationRunId !== null);
  expect(validated.map((c) => c.validationRunId)).toEqual(
    validated.map((c) => rigRunId(rigId, c.round, c.iteration)),
  );
  const runs = await db().run.findMany({
    where: { id: { startsWith: rigId }, kind: 'validation' },
    include: { _count: { select: { episodes: true } } },
  });
  expect(runs).toHaveLength(validated.length);
  for (const run of runs) {
    expect(run.status).toBe('completed');
    expect(run._count.episodes).toBe(k);
    expect(run.episodesDone).toBe(k);
  }
  expect(await db().diagnosis.count({ where: { rigId } })).toBe(1);
  const rig = await db().rig.findUniqueOrThrow({ where: { id: rigId } });
  expect(rig.status).toBe('completed');
  return { rows, rig };
}

describe('executeRig resumes from the rows', { timeout: 120_000 }, () => {
  let reference: RigResult;

  it('re-executing a finished rig writes nothing and answers the same result', async () => {
    reference = await runRig(deps(), INPUT);
    expect(reference.accepted).not.toBeNull();
    expect(reference.iterations.length).toBeGreaterThanOrEqual(2);
    const before = await rowCounts(db());
    const designer = new CountingDesigner();
    const again = await executeRig(deps(), reference.rigId, { designer });
    expect(await rowCounts(db())).toEqual(before);
    expect([designer.diagnoses, designer.writes]).toEqual([0, 0]);
    expect(outcome(again)).toEqual(outcome(reference));
    expect(again.iterations.map((i) => i.candidateId)).toEqual(
      reference.iterations.map((i) => i.candidateId),
    );
  });

  it('finishes a rig stopped while a validation ran, each iteration once', async () => {
    const { rigId } = await createRig(deps(), INPUT);
    const stop = new AbortController();
    let validations = 0;
    await expect(
      executeRig(deps(), rigId, {
        signal: stop.signal,
        onProgress: (t) => {
          if (t.startsWith('validation: run ') && ++validations === 2) stop.abort();
        },
      }),
    ).rejects.toThrow(RigStoppedError);
    // The crash state: the second candidate's run is recorded, its decision is not.
    const stopped = await db().rig.findUniqueOrThrow({
      where: { id: rigId },
      include: { candidates: { orderBy: { iteration: 'asc' } } },
    });
    expect(stopped.status).toBe('running');
    expect(stopped.candidates.map((c) => c.decision)).toEqual(['refine', null]);
    expect(stopped.candidates[1]?.validationRunId).toBe(rigRunId(rigId, 0, 1));

    const designer = new CountingDesigner();
    const r = await executeRig(deps(), rigId, { designer });
    // Both candidates are on rows: the designer is asked for neither (nor for the diagnosis).
    expect([designer.diagnoses, designer.writes]).toEqual([0, 0]);
    expect(outcome(r)).toEqual(outcome(reference));
    const { rig } = await expectRecordedOnce(rigId);
    expect(rig.acceptedCandidateId).toBe(r.acceptedCandidateId);
  });

  it('waits for a recorded, unfinished baseline instead of launching another', async () => {
    const input = { ...INPUT, seed: 300 };
    const seeds = [300, 301, 302, 303, 304];
    const { rigId } = await createRig(deps(), input);
    const stop = new AbortController();
    await expect(
      executeRig(deps(), rigId, {
        signal: stop.signal,
        onProgress: (t) => {
          if (t.startsWith('baseline: run ')) stop.abort();
        },
      }),
    ).rejects.toThrow(RigStoppedError);
    const stopped = await db().rig.findUniqueOrThrow({
      where: { id: rigId },
      include: { diagnoses: true, candidates: true },
    });
    expect(stopped.baselineRunId).toBe(rigRunId(rigId, 0, 'baseline'));
    expect(stopped.diagnoses).toHaveLength(0);

    const r = await executeRig(deps(), rigId);
    expect(r.baseline.runId).toBe(stopped.baselineRunId);
    expect(r.baseline.cached).toBe(false);
    expect(
      await db().run.count({
        where: { kind: 'baseline', policy: INPUT.policy, seeds: { equals: seeds } },
      }),
    ).toBe(1);
    await expectRecordedOnce(rigId);
  });

  it('two executions of one rig at once record each iteration once and agree', async () => {
    const { rigId } = await createRig(deps(), INPUT);
    const [a, b] = await Promise.all([executeRig(deps(), rigId), executeRig(deps(), rigId)]);
    expect(outcome(a)).toEqual(outcome(reference));
    expect(outcome(b)).toEqual(outcome(reference));
    expect(b.iterations.map((i) => i.candidateId)).toEqual(a.iterations.map((i) => i.candidateId));
    await expectRecordedOnce(rigId);
  });

  it('finds the run of a candidate whose run id was never recorded (crash right after the launch)', async () => {
    const { rigId } = await createRig(deps(), INPUT);
    const first = await executeRig(deps(), rigId);
    const last = await db().candidate.findFirstOrThrow({
      where: { rigId },
      orderBy: { iteration: 'desc' },
    });
    const { template, params } = last.stats as { template?: string; params?: unknown };
    await db().rig.update({
      where: { id: rigId },
      data: { status: 'running', acceptedCandidateId: null, finishedAt: null },
    });
    await db().candidate.update({
      where: { id: last.id },
      data: {
        decision: null,
        feedback: null,
        validationRunId: null,
        stats: { template, params } as object,
      },
    });
    const before = await rowCounts(db());
    const r = await executeRig(deps(), rigId);
    expect(await rowCounts(db())).toEqual(before);
    expect(outcome(r)).toEqual(outcome(first));
    const { rows, rig } = await expectRecordedOnce(rigId);
    expect(rows.at(-1)?.validationRunId).toBe(rigRunId(rigId, 0, last.iteration));
    expect(rig.acceptedCandidateId).toBe(last.id);
  });
});
