// Reading where decisions stand: the decisions recorded on a candidate or a harness version (a
// candidate filed in the library and its version share one history), the validation run the gate
// looks at, and the concerns that make approving need a reason. Batched, so a rig or harness page
// with many candidates or versions costs a handful of queries.
import { z } from 'zod';
import {
  type Decision,
  type DecisionGate,
  type DecisionRecord,
  stateOf,
} from '../../contracts/decisions.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError } from '../errors.ts';
import { approvalConcerns, type RunEvidence } from './decision-rules.ts';

/** The client, or a transaction of it: reads and writes here run in either. */
export type DbLike = Db | Prisma.TransactionClient;

/** Whose decisions: a candidate, a harness version, or both once the candidate is in the library. */
export interface DecisionScope {
  candidateId: string | null;
  harnessVersionId: string | null;
}

const approvalSelect = {
  id: true,
  candidateId: true,
  harnessVersionId: true,
  decision: true,
  reason: true,
  by: true,
  at: true,
  reversesId: true,
  concerns: true,
  reversedBy: { select: { id: true } },
} satisfies Prisma.ApprovalSelect;
type ApprovalRow = Prisma.ApprovalGetPayload<{ select: typeof approvalSelect }>;

function toRecord(a: ApprovalRow): DecisionRecord {
  return {
    id: a.id,
    decision: a.decision as Decision,
    reason: a.reason,
    by: a.by,
    at: a.at.toISOString(),
    reversesId: a.reversesId,
    concerns: a.concerns,
  };
}

export interface DecisionHistory {
  /** Newest first. */
  history: DecisionRecord[];
  /** The decision in force: the newest that nothing reverses (rows from before reversals existed
   * may leave several unreversed; the newest wins, as it did then). */
  current: DecisionRecord | null;
}

function inScope(a: ApprovalRow, s: DecisionScope): boolean {
  return (
    (s.candidateId !== null && a.candidateId === s.candidateId) ||
    (s.harnessVersionId !== null && a.harnessVersionId === s.harnessVersionId)
  );
}

/** The decision histories of several scopes, in one query. */
export async function loadHistories(
  db: DbLike,
  scopes: DecisionScope[],
): Promise<DecisionHistory[]> {
  const candidateIds = scopes.flatMap((s) => (s.candidateId ? [s.candidateId] : []));
  const versionIds = scopes.flatMap((s) => (s.harnessVersionId ? [s.harnessVersionId] : []));
  const rows =
    candidateIds.length + versionIds.length === 0
      ? []
      : await db.approval.findMany({
          where: {
            OR: [{ candidateId: { in: candidateIds } }, { harnessVersionId: { in: versionIds } }],
          },
          orderBy: [{ at: 'desc' }, { id: 'desc' }],
          select: approvalSelect,
        });
  return scopes.map((s) => {
    const mine = rows.filter((a) => inScope(a, s));
    const current = mine.find((a) => a.reversedBy === null);
    return { history: mine.map(toRecord), current: current ? toRecord(current) : null };
  });
}

export async function loadHistory(db: DbLike, scope: DecisionScope): Promise<DecisionHistory> {
  const [h] = await loadHistories(db, [scope]);
  return h ?? { history: [], current: null };
}

/** Runs as the gate reads them: status and the outcomes of their finished episodes. */
export async function runEvidence(db: DbLike, runIds: string[]): Promise<Map<string, RunEvidence>> {
  const ids = [...new Set(runIds)];
  if (ids.length === 0) return new Map();
  const [runs, counts] = await Promise.all([
    db.run.findMany({
      where: { id: { in: ids } },
      select: { id: true, status: true, episodesTotal: true },
    }),
    db.episode.groupBy({
      by: ['runId', 'outcome'],
      where: { runId: { in: ids }, status: 'done' },
      _count: { _all: true },
    }),
  ]);
  const out = new Map<string, RunEvidence>();
  for (const r of runs) {
    out.set(r.id, { ...r, successes: 0, failures: 0, errors: 0 });
  }
  for (const c of counts) {
    const e = out.get(c.runId);
    if (!e) continue;
    if (c.outcome === 'success') e.successes += c._count._all;
    else if (c.outcome === 'failure') e.failures += c._count._all;
    else if (c.outcome === 'error') e.errors += c._count._all;
  }
  return out;
}

const BandSchema = z.object({ band: z.tuple([z.number(), z.number()]) });

/** A rig's target band, when its constraints hold one. */
export function bandOf(constraints: unknown): [number, number] | null {
  const parsed = BandSchema.safeParse(constraints);
  return parsed.success ? parsed.data.band : null;
}

function gate(
  h: DecisionHistory,
  run: { id: string | null; evidence: RunEvidence | undefined },
  band: [number, number] | null,
): DecisionGate {
  return {
    state: stateOf(h.current),
    current: h.current,
    history: h.history,
    validationRunId: run.id,
    band,
    // A run id whose row is gone reads as no run at all.
    concerns: approvalConcerns(run.evidence ?? null, band),
  };
}

const gateCandidateSelect = {
  id: true,
  validationRunId: true,
  harnessVersionId: true,
  rig: { select: { constraints: true } },
} satisfies Prisma.CandidateSelect;

/** The gate of each candidate (by id; unknown ids are left out): its own validation run, its rig's band. */
export async function candidateGates(
  db: DbLike,
  candidateIds: string[],
): Promise<Map<string, DecisionGate>> {
  const candidates = await db.candidate.findMany({
    where: { id: { in: candidateIds } },
    select: gateCandidateSelect,
  });
  const [histories, evidence] = await Promise.all([
    loadHistories(
      db,
      candidates.map((c) => ({ candidateId: c.id, harnessVersionId: c.harnessVersionId })),
    ),
    runEvidence(
      db,
      candidates.flatMap((c) => (c.validationRunId ? [c.validationRunId] : [])),
    ),
  ]);
  return new Map(
    candidates.map((c, i) => [
      c.id,
      gate(
        histories[i] ?? { history: [], current: null },
        {
          id: c.validationRunId,
          evidence: c.validationRunId ? evidence.get(c.validationRunId) : undefined,
        },
        bandOf(c.rig.constraints),
      ),
    ]),
  );
}

/**
 * The gate of each harness version (by id). Its validation runs are the runs made of the version
 * and, for a version filed from a rig candidate, that candidate's validation run (whose rig's band
 * then applies). The gate looks at `pick[versionId]` when given (it must be one of them), else at
 * the newest.
 */
export async function versionGates(
  db: DbLike,
  versionIds: string[],
  pick: Record<string, string> = {},
): Promise<Map<string, DecisionGate>> {
  const candidates = await db.candidate.findMany({
    where: { harnessVersionId: { in: versionIds } },
    orderBy: { createdAt: 'asc' },
    select: gateCandidateSelect,
  });
  const fromCandidate = new Map(candidates.map((c) => [c.harnessVersionId ?? '', c]));
  const candidateRuns = candidates.flatMap((c) => (c.validationRunId ? [c.validationRunId] : []));
  const runs = await db.run.findMany({
    where: { OR: [{ harnessVersionId: { in: versionIds } }, { id: { in: candidateRuns } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, harnessVersionId: true },
  });
  const runsOf = (v: string) =>
    runs.filter((r) => r.harnessVersionId === v || r.id === fromCandidate.get(v)?.validationRunId);
  const [histories, evidence] = await Promise.all([
    loadHistories(
      db,
      versionIds.map((v) => ({
        candidateId: fromCandidate.get(v)?.id ?? null,
        harnessVersionId: v,
      })),
    ),
    runEvidence(
      db,
      runs.map((r) => r.id),
    ),
  ]);
  const out = new Map<string, DecisionGate>();
  versionIds.forEach((v, i) => {
    const mine = runsOf(v);
    const wanted = pick[v];
    if (wanted !== undefined && !mine.some((r) => r.id === wanted)) {
      throw new InvalidInputError(`run '${wanted}' is not a validation run of this version`);
    }
    const runId = wanted ?? mine[0]?.id ?? null;
    out.set(
      v,
      gate(
        histories[i] ?? { history: [], current: null },
        { id: runId, evidence: runId ? evidence.get(runId) : undefined },
        bandOf(fromCandidate.get(v)?.rig.constraints),
      ),
    );
  });
  return out;
}
