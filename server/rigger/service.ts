// The rigs as the studio sees them: read a rig with its diagnoses, candidates and where a person's
// decision on each stands, and list rigs. A person's review is review.ts; launching is a job
// (jobs.ts: RigJobs.start, on the composed services).

import { displayTaskId } from '../../bridges/core/capabilities.ts';
import type { BridgeResolver } from '../../bridges/core/types.ts';
import type { DecisionGate } from '../../contracts/decisions.ts';
import type { ComponentName } from '../../contracts/rigs.ts';
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { candidateGates } from '../harnesses/gates.ts';
import type { DesignerName } from './designers/index.ts';
import { diagnosisOfRow } from './records.ts';
import { designerWhy, StoredRigSettingsSchema } from './settings.ts';
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
  /** A person's decision: its state, who decided, when and why, and what approving would need. */
  gate: DecisionGate;
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
  /** The llm designer's model when it is the policy's own (the paper's same-model designer). */
  designerModel: string | null;
  /** Why this designer: chosen at launch, or the policy's default (contracts/rigs.ts). */
  designerWhy: string;
  /** What the designer may write: Stage and Contract in paper mode; Chain only on opt-in. */
  components: ComponentName[];
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
          harnessVersion: { select: { id: true, harnessId: true, version: true } },
        },
      },
    },
  });
  if (!rig) throw new NotFoundError(`rig '${id}' not found`);
  const gates = await candidateGates(
    db,
    rig.candidates.map((c) => c.id),
  );
  return {
    id: rig.id,
    bridge: rig.bridge,
    taskId: rig.taskId,
    displayTaskId: await shownTaskId(bridges, rig.bridge, rig.taskId),
    policy: rig.policy,
    designer: rig.designer,
    ...designerOfRow(rig),
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
      const gate = gates.get(c.id);
      if (!gate) throw new NotFoundError(`candidate '${c.id}' not found`);
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
        gate,
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
export async function shownTaskId(
  bridges: BridgeResolver,
  bridgeName: string,
  taskId: string,
): Promise<string> {
  const bridge = await bridges.get(bridgeName).catch(() => undefined);
  return displayTaskId(bridge, taskId);
}

/** The designer's model, why it is the one, and the components, from a rig row's settings. */
function designerOfRow(rig: { policy: string; constraints: unknown }): {
  designerModel: string | null;
  designerWhy: string;
  components: ComponentName[];
} {
  const stored = StoredRigSettingsSchema.safeParse(rig.constraints);
  if (!stored.success)
    return { designerModel: null, designerWhy: 'chosen at launch', components: [] };
  const { designerChoice, designerModel, components } = stored.data;
  return {
    designerModel: designerModel ?? null,
    designerWhy: designerWhy({ designerChoice, policy: rig.policy }),
    components,
  };
}
