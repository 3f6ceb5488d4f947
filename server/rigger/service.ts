// The rigs as the studio sees them: read a rig with its diagnoses, candidates and decisions, list
// rigs, and record a person's approval or rejection of a candidate whatever the automatic decision
// was. Launching is a job (jobs.ts: RigJobs.start, on the composed services).

import { displayTaskId } from '../../bridges/core/capabilities.ts';
import type { BridgeResolver } from '../../bridges/core/types.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { parseSpec } from '../harness/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import {
  createHarnessWithVersion,
  decideHarnessVersion,
  saveHarnessVersion,
} from '../harnesses/library.ts';
import type { DesignerName } from './designers/index.ts';
import { candidateSelect, diagnosisOfRow } from './records.ts';
import type { Axis, DiagnosisCheck, StoredEvidence } from './types.ts';

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
  /** The harness-library version an approval saved this candidate as (opens in the editor). */
  library: { harnessId: string; harnessVersionId: string; version: number } | null;
}

export interface RigView {
  id: string;
  bridge: string;
  taskId: string;
  /** The task as people read it (Bridge.displayTaskId): `taskId` without a pinned scene. */
  displayTaskId: string;
  policy: string;
  designer: DesignerName;
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
    axis: Axis;
    label: string;
    description: string;
    /** Parsed with the contracts' schema: diagnoses stored before quotes existed have none. */
    evidence: StoredEvidence[];
    report: Record<string, unknown> | null;
    /** The checker's record (what it proved, what it removed); null on diagnoses stored before it. */
    check: DiagnosisCheck | null;
  }[];
  candidates: RigCandidateView[];
}

/** What reading and reviewing rigs need: the database, and the bridges that say how a task reads. */
export interface RigStore {
  db: Db;
  bridges: BridgeResolver;
}

export async function getRig({ db, bridges }: RigStore, id: string): Promise<RigView> {
  const rig = await db.rig.findUnique({
    where: { id },
    include: {
      diagnoses: { orderBy: { round: 'asc' } },
      candidates: {
        orderBy: [{ round: 'asc' }, { iteration: 'asc' }],
        include: {
          approvals: { orderBy: { at: 'desc' }, take: 1 },
          harnessVersion: { select: { id: true, harnessId: true, version: true } },
        },
      },
    },
  });
  if (!rig) throw new NotFoundError(`rig '${id}' not found`);
  return {
    id: rig.id,
    bridge: rig.bridge,
    taskId: rig.taskId,
    displayTaskId: await shownTaskId(bridges, rig.bridge, rig.taskId),
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
    diagnoses: rig.diagnoses.map((d) => {
      const { report } = diagnosisOfRow(d);
      return {
        id: d.id,
        round: d.round,
        axis: d.axis,
        label: d.label,
        description: d.description,
        evidence: report.evidence,
        report: (d.report ?? null) as Record<string, unknown> | null,
        check: report.check ?? null,
      };
    }),
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
        library: c.harnessVersion
          ? {
              harnessId: c.harnessVersion.harnessId,
              harnessVersionId: c.harnessVersion.id,
              version: c.harnessVersion.version,
            }
          : null,
      };
    }),
  };
}

export async function listRigs(
  db: Db,
  o: { bridge?: string; taskId?: string; limit?: number; projectId?: string } = {},
) {
  const rows = await db.rig.findMany({
    where: {
      ...(o.projectId ? { projectId: o.projectId } : {}),
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

/** A rig's task as people read it (the bridge's displayTaskId capability: without a pinned scene). */
async function shownTaskId(
  bridges: BridgeResolver,
  bridgeName: string,
  taskId: string,
): Promise<string> {
  const bridge = await bridges.get(bridgeName).catch(() => undefined);
  return displayTaskId(bridge, taskId);
}

export interface ReviewResult {
  id: string;
  decision: 'approve' | 'reject';
  by: string;
  at: string;
  /** Set once the candidate is in the task's harness library. */
  harnessId: string | null;
  harnessVersionId: string | null;
}

const REVIEWED_CANDIDATE = {
  ...candidateSelect,
  harnessVersionId: true,
  rig: { select: { id: true, bridge: true, taskId: true, policy: true, projectId: true } },
} satisfies Prisma.CandidateSelect;
type ReviewedCandidate = Prisma.CandidateGetPayload<{ select: typeof REVIEWED_CANDIDATE }>;

/**
 * Files an approved candidate's spec in the task's harness library: a new version of the rig's
 * harness, or the rig's first harness. Returns the version id, linked from the candidate.
 */
async function fileInLibrary(
  { db, bridges }: RigStore,
  c: ReviewedCandidate,
  input: { by: string; projectId?: string },
): Promise<string> {
  const spec = parseSpec(c.spec);
  const template = (c.stats as { template?: unknown } | null)?.template;
  const versionName = `#${c.iteration + 1}${c.round > 0 ? ` round ${c.round + 1}` : ''}${
    typeof template === 'string' ? ` · ${template}` : ''
  }`;
  const note = c.rationale.slice(0, 2000);
  const sibling = await db.candidate.findFirst({
    where: { rigId: c.rig.id, harnessVersionId: { not: null } },
    select: { harnessVersion: { select: { harnessId: true } } },
  });
  const harnessId = sibling?.harnessVersion?.harnessId;
  const version = harnessId
    ? await saveHarnessVersion(db, {
        harnessId,
        name: versionName,
        spec,
        note,
        createdBy: input.by,
      })
    : (
        await createHarnessWithVersion(db, {
          name: `EnvRigger: ${await shownTaskId(bridges, c.rig.bridge, c.rig.taskId)} vs ${c.rig.policy}`,
          spec,
          versionName,
          note,
          description: `Approved from rig ${c.rig.id} (${c.rig.bridge}:${c.rig.taskId}, policy ${c.rig.policy}).`,
          createdBy: input.by,
          projectId: input.projectId ?? c.rig.projectId,
          // Filed under the benchmark task (the spec itself keeps the pinned scene).
          taskId: await shownTaskId(bridges, c.rig.bridge, c.rig.taskId),
        })
      ).version;
  await db.candidate.update({ where: { id: c.id }, data: { harnessVersionId: version.id } });
  return version.id;
}

/**
 * A person's verdict on a candidate, kept beside the automatic decision (never replacing it).
 * Approving files the candidate's spec in the task's harness library: one harness per rig (created
 * on the first approval, later approvals add versions), an immutable version linked from the
 * candidate, the harness marked approved. Rejecting needs a reason; a candidate already in the
 * library takes its harness to "rejected" the same way the harness page's decision does.
 */
export async function reviewCandidate(
  { db, bridges }: RigStore,
  input: {
    candidateId: string;
    decision: 'approve' | 'reject';
    reason?: string;
    by: string;
    projectId?: string;
  },
): Promise<ReviewResult> {
  const c = await db.candidate.findUnique({
    where: { id: input.candidateId },
    select: REVIEWED_CANDIDATE,
  });
  if (!c) throw new NotFoundError(`candidate '${input.candidateId}' not found`);
  const reason = (input.reason ?? '').trim();
  if (input.decision === 'approve' && c.writeError) {
    throw new InvalidInputError('a candidate the environment rejected cannot be approved');
  }
  if (input.decision === 'reject' && !reason) {
    throw new InvalidInputError('say why the candidate is rejected (reason)');
  }

  const versionId =
    c.harnessVersionId ??
    (input.decision === 'approve' ? await fileInLibrary({ db, bridges }, c, input) : null);
  if (versionId) {
    const a = await decideHarnessVersion(db, {
      harnessVersionId: versionId,
      candidateId: c.id,
      decision: input.decision,
      reason,
      by: input.by,
    });
    return {
      id: a.id,
      decision: input.decision,
      by: a.by,
      at: a.at.toISOString(),
      harnessId: a.harnessId,
      harnessVersionId: versionId,
    };
  }
  const a = await db.approval.create({
    data: { candidateId: c.id, decision: input.decision, reason, by: input.by },
    select: { id: true, by: true, at: true },
  });
  return {
    id: a.id,
    decision: input.decision,
    by: a.by,
    at: a.at.toISOString(),
    harnessId: null,
    harnessVersionId: null,
  };
}
