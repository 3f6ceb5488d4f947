// The rigs as the studio sees them: launch a rig in the background (answering with its id as soon
// as it exists), read a rig with its diagnoses, candidates and decisions, list rigs, and record a
// person's approval or rejection of a candidate whatever the automatic decision was.
import { InvalidInputError, NotFoundError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { rolloutDb } from '../rollouts/db.ts';
import { type RigInput, runRig } from './loop.ts';
import type { Evidence } from './types.ts';

/** Starts a rig; resolves with its id once the Rig row exists, the loop goes on in the background. */
export function startRig(input: RigInput): Promise<{ rigId: string }> {
  return new Promise((resolve, reject) => {
    let created = false;
    runRig(input, {
      onRigCreated: (rigId) => {
        created = true;
        resolve({ rigId });
      },
    }).catch((e: unknown) => {
      // Before the row exists the caller hears of it; after, the rig row carries the error.
      if (!created) reject(e);
    });
  });
}

export interface RigCandidateView {
  id: string;
  round: number;
  iteration: number;
  spec: HarnessSpec;
  rationale: string;
  writeError: string | null;
  validationRunId: string | null;
  stats: Record<string, unknown> | null;
  decision: string | null;
  feedback: string | null;
  approval: { decision: string; reason: string; by: string; at: string } | null;
}

export interface RigView {
  id: string;
  bridge: string;
  taskId: string;
  policy: string;
  designer: string;
  k: number;
  maxIterations: number;
  rounds: number;
  constraints: { band: [number, number]; stepsBand?: [number, number]; defect?: string };
  status: string;
  error: string | null;
  baselineRunId: string | null;
  acceptedCandidateId: string | null;
  createdAt: string;
  finishedAt: string | null;
  diagnoses: {
    id: string;
    round: number;
    axis: string;
    label: string;
    description: string;
    evidence: Evidence[];
    report: Record<string, unknown> | null;
  }[];
  candidates: RigCandidateView[];
}

export async function getRig(id: string): Promise<RigView> {
  const db = await rolloutDb();
  const rig = await db.rig.findUnique({
    where: { id },
    include: {
      diagnoses: { orderBy: { round: 'asc' } },
      candidates: {
        orderBy: [{ round: 'asc' }, { iteration: 'asc' }],
        include: { approvals: { orderBy: { at: 'desc' }, take: 1 } },
      },
    },
  });
  if (!rig) throw new NotFoundError(`rig '${id}' not found`);
  return {
    id: rig.id,
    bridge: rig.bridge,
    taskId: rig.taskId,
    policy: rig.policy,
    designer: rig.designer,
    k: rig.k,
    maxIterations: rig.maxIterations,
    rounds: rig.rounds,
    constraints: rig.constraints as RigView['constraints'],
    status: rig.status,
    error: rig.error,
    baselineRunId: rig.baselineRunId,
    acceptedCandidateId: rig.acceptedCandidateId,
    createdAt: rig.createdAt.toISOString(),
    finishedAt: rig.finishedAt?.toISOString() ?? null,
    diagnoses: rig.diagnoses.map((d) => ({
      id: d.id,
      round: d.round,
      axis: d.axis,
      label: d.label,
      description: d.description,
      evidence: d.evidence as unknown as Evidence[],
      report: (d.report ?? null) as Record<string, unknown> | null,
    })),
    candidates: rig.candidates.map((c) => {
      const a = c.approvals[0];
      return {
        id: c.id,
        round: c.round,
        iteration: c.iteration,
        spec: c.spec as unknown as HarnessSpec,
        rationale: c.rationale,
        writeError: c.writeError,
        validationRunId: c.validationRunId,
        stats: (c.stats ?? null) as Record<string, unknown> | null,
        decision: c.decision,
        feedback: c.feedback,
        approval: a
          ? { decision: a.decision, reason: a.reason, by: a.by, at: a.at.toISOString() }
          : null,
      };
    }),
  };
}

export async function listRigs(o: { bridge?: string; taskId?: string; limit?: number } = {}) {
  const db = await rolloutDb();
  const rows = await db.rig.findMany({
    where: {
      ...(o.bridge ? { bridge: o.bridge } : {}),
      ...(o.taskId ? { taskId: { startsWith: o.taskId } } : {}),
    },
    orderBy: { createdAt: 'desc' },
    take: Math.min(Math.max(o.limit ?? 50, 1), 200),
    select: {
      id: true,
      bridge: true,
      taskId: true,
      policy: true,
      designer: true,
      status: true,
      acceptedCandidateId: true,
      createdAt: true,
    },
  });
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** A person's verdict on a candidate, kept beside the automatic decision (never replacing it). */
export async function reviewCandidate(input: {
  candidateId: string;
  decision: 'approve' | 'reject';
  reason?: string;
  by: string;
}): Promise<{ id: string }> {
  const db = await rolloutDb();
  const c = await db.candidate.findUnique({
    where: { id: input.candidateId },
    select: { id: true, writeError: true },
  });
  if (!c) throw new NotFoundError(`candidate '${input.candidateId}' not found`);
  if (input.decision === 'approve' && c.writeError) {
    throw new InvalidInputError('a candidate the environment rejected cannot be approved');
  }
  return db.approval.create({
    data: { candidateId: c.id, decision: input.decision, reason: input.reason ?? '', by: input.by },
    select: { id: true },
  });
}
