// The rows a rig writes as it goes, and how an execution reads them back: a Diagnosis per round, a
// Candidate per (round, iteration). executeRig() rebuilds its progress from these rows, so a rig
// resumed after a crash reuses what is recorded instead of asking the designer again. Two
// executions of one rig (a stalled BullMQ job taken over while the first still runs) settle on the
// row written first.
import { z } from 'zod';
import type { Json } from '../../bridges/core/types.ts';
import { ClaimSchema, DiagnosisCheckSchema, StoredEvidenceSchema } from '../../contracts/rigs.ts';
import type { Db } from '../db/index.ts';
import { isUniqueViolation } from '../db/queries.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { CheckedDiagnosis } from './diagnosis-check.ts';
import { AXES, type CandidateDraft, type Decision, type StoredDiagnosis } from './types.ts';

export const candidateSelect = {
  id: true,
  round: true,
  iteration: true,
  spec: true,
  rationale: true,
  writeError: true,
  validationRunId: true,
  stats: true,
  decision: true,
  feedback: true,
} as const;

export interface CandidateRow {
  id: string;
  round: number;
  iteration: number;
  spec: unknown;
  rationale: string;
  writeError: string | null;
  validationRunId: string | null;
  stats: unknown;
  decision: Decision | null;
  feedback: string | null;
}

/** What an execution finds recorded when it starts. */
export interface RigProgress {
  createdAt: Date;
  /** Round 0's baseline (the studio links it). */
  baselineRunId: string | null;
  diagnoses: Map<number, { report: StoredDiagnosis; baselineRunId: string | null }>;
  candidates: Map<string, CandidateRow>;
}

export function candidateKey(round: number, iteration: number): string {
  return `${round}:${iteration}`;
}

const ReportSchema = z.looseObject({
  direction: z.enum(['scaffold', 'harder', 'none']).catch('none'),
  secondary: z
    .array(z.object({ axis: z.enum(AXES), label: z.string(), description: z.string() }))
    .optional()
    .catch(undefined),
  baselineRunId: z.string().optional().catch(undefined),
  // Rows written before the checker existed have neither.
  claims: z.array(ClaimSchema).optional().catch(undefined),
  check: DiagnosisCheckSchema.optional().catch(undefined),
});
/** Evidence as stored; rows written before quotes existed read without one. */
export const StoredEvidenceListSchema = z.array(StoredEvidenceSchema).catch([]);

interface DiagnosisRow {
  round: number;
  axis: string;
  label: string;
  description: string;
  evidence: unknown;
  report: unknown;
}

export function diagnosisOfRow(row: DiagnosisRow): {
  report: StoredDiagnosis;
  baselineRunId: string | null;
} {
  const r = ReportSchema.parse(row.report ?? {});
  const axis = (AXES as readonly string[]).includes(row.axis)
    ? (row.axis as StoredDiagnosis['axis'])
    : 'none';
  return {
    report: {
      axis,
      label: row.label,
      description: row.description,
      evidence: StoredEvidenceListSchema.parse(row.evidence),
      direction: r.direction,
      ...(r.secondary ? { secondary: r.secondary } : {}),
      ...(r.claims ? { claims: r.claims } : {}),
      ...(r.check ? { check: r.check } : {}),
    },
    baselineRunId: r.baselineRunId ?? null,
  };
}

export async function loadProgress(db: Db, rigId: string): Promise<RigProgress> {
  const rig = await db.rig.findUniqueOrThrow({
    where: { id: rigId },
    select: {
      createdAt: true,
      baselineRunId: true,
      diagnoses: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
      candidates: { select: candidateSelect },
    },
  });
  const diagnoses: RigProgress['diagnoses'] = new Map();
  // The first row of a round wins (see recordDiagnosis).
  for (const d of rig.diagnoses)
    if (!diagnoses.has(d.round)) diagnoses.set(d.round, diagnosisOfRow(d));
  return {
    createdAt: rig.createdAt,
    baselineRunId: rig.baselineRunId,
    diagnoses,
    candidates: new Map(rig.candidates.map((c) => [candidateKey(c.round, c.iteration), c])),
  };
}

/**
 * Records a round's diagnosis — only one the checker passed (gateDiagnosis). Diagnosis has no unique
 * (rig, round) key, so a second execution's row is dropped after the fact: the earliest row is the
 * round's diagnosis.
 */
export async function recordDiagnosis(
  db: Db,
  rigId: string,
  round: number,
  d: CheckedDiagnosis,
  extra: Record<string, Json>,
): Promise<StoredDiagnosis> {
  const created = await db.diagnosis.create({
    data: {
      rigId,
      round,
      axis: d.axis,
      label: d.label,
      description: d.description,
      evidence: d.evidence as unknown as object,
      report: {
        direction: d.direction,
        ...(d.secondary ? { secondary: d.secondary } : {}),
        ...(d.claims ? { claims: d.claims } : {}),
        check: d.check,
        ...extra,
      } as object,
    },
    select: { id: true },
  });
  const rows = await db.diagnosis.findMany({
    where: { rigId, round },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const first = rows[0];
  if (!first || first.id === created.id) return d;
  await db.diagnosis.delete({ where: { id: created.id } });
  return diagnosisOfRow(first).report;
}

/** The candidate's draft as recorded (its spec, rationale and the designer's bookkeeping). */
export function draftOfRow(row: CandidateRow): CandidateDraft {
  const stats = (row.stats ?? {}) as { template?: unknown; params?: Json };
  return {
    spec: row.spec as HarnessSpec,
    rationale: row.rationale,
    ...(typeof stats.template === 'string' ? { template: stats.template } : {}),
    ...(stats.params !== undefined ? { params: stats.params } : {}),
  };
}

/** The Candidate row of a Write; when another execution wrote this iteration first, its row. */
export async function createCandidate(
  db: Db,
  key: { rigId: string; round: number; iteration: number },
  draft: CandidateDraft,
): Promise<CandidateRow> {
  const bookkeeping = {
    ...(draft.template ? { template: draft.template } : {}),
    ...(draft.params !== undefined ? { params: draft.params } : {}),
  };
  try {
    return await db.candidate.create({
      data: {
        ...key,
        spec: draft.spec as unknown as object,
        rationale: draft.rationale,
        ...(Object.keys(bookkeeping).length ? { stats: bookkeeping as object } : {}),
      },
      select: candidateSelect,
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    return db.candidate.findUniqueOrThrow({
      where: { rigId_round_iteration: key },
      select: candidateSelect,
    });
  }
}

export interface CandidateOutcome {
  writeError: string | null;
  validationRunId: string | null;
  stats: object;
  decision: Decision;
  feedback: string;
}

/** Records the decision unless one is recorded already (then answers the row as it stands). */
export async function decideCandidate(
  db: Db,
  id: string,
  outcome: CandidateOutcome,
): Promise<{ applied: boolean; row: CandidateRow }> {
  const { count } = await db.candidate.updateMany({ where: { id, decision: null }, data: outcome });
  const row = await db.candidate.findUniqueOrThrow({ where: { id }, select: candidateSelect });
  return { applied: count === 1, row };
}

export function recordValidationRun(db: Db, candidateId: string, runId: string) {
  return db.candidate.update({ where: { id: candidateId }, data: { validationRunId: runId } });
}
