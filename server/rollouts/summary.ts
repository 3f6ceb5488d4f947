// A run as the studio and the CLI read it: its row, its settings, and what its episodes add up to —
// progress, metrics and outcome computed together from one grouped read of the episodes, so the
// run page's header, its episode table and the runs list never disagree on a count.
import { type RunOutcome, runOutcome } from '../../contracts/outcomes.ts';
import {
  InvalidLoopLimitSchema,
  type PolicyOptions,
  PolicyOptionsSchema,
  type RunParams,
  RunParamsSchema,
} from '../../contracts/runs.ts';
import { firstBase, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { parseColumn, parseOptionalColumn } from '../db/json.ts';
import { runListSelect } from '../db/queries.ts';
import { NotFoundError } from '../errors.ts';
import { lineageOf, type RunLineage, runLineageSelect } from './lineage.ts';
import { type EpisodeGroup, metricsOfGroups, type RunMetrics } from './metrics.ts';

type RunRow = Prisma.RunGetPayload<{ select: typeof runListSelect }>;

export type RunInfo = Omit<RunRow, 'createdAt' | 'startedAt' | 'finishedAt'> & {
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export interface RunSummary extends RunInfo {
  spec: HarnessSpec;
  /** The reward parameters the run overrides (reward parameters only). */
  rewardParams: RunParams;
  /** What the run handed its policy (e.g. a skill bank id), as stored; null: none. */
  policyOptions: PolicyOptions | null;
  /** Consecutive invalid actions that end an episode; null: no such cut-off (the default). */
  invalidLoopLimit: number | null;
  /** GRPO group size G: every start seed was played G times (1: one episode per start seed). */
  groupSize: number;
  metrics: RunMetrics;
  counts: { queued: number; running: number; done: number };
  /** Beside the status: did every finished episode error, some, or none (contracts/outcomes.ts). */
  outcome: RunOutcome;
  lineage: RunLineage;
}

export function toRunInfo(row: RunRow): RunInfo {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** What a summary reads of the run row. */
export const runSummarySelect = {
  ...runListSelect,
  spec: true,
  rewardParams: true,
  policyOptions: true,
  invalidLoopLimit: true,
  groupSize: true,
  ...runLineageSelect,
} as const satisfies Prisma.RunSelect;

type SummaryRow = Prisma.RunGetPayload<{ select: typeof runSummarySelect }>;

export interface RunAggregate {
  counts: { queued: number; running: number; done: number };
  metrics: RunMetrics;
  outcome: RunOutcome;
}

/** Progress, metrics and outcome of each run, from one GROUP BY over their episodes. */
export async function runAggregates(db: Db, runIds: string[]): Promise<Map<string, RunAggregate>> {
  const rows =
    runIds.length === 0
      ? []
      : await db.episode.groupBy({
          by: ['runId', 'status', 'outcome', 'failureCategory', 'errorKind'],
          where: { runId: { in: runIds } },
          _count: { _all: true, reward: true },
          _sum: { steps: true, reward: true },
        });
  const byRun = new Map<string, { counts: RunAggregate['counts']; done: EpisodeGroup[] }>();
  for (const id of runIds) byRun.set(id, { counts: { queued: 0, running: 0, done: 0 }, done: [] });
  for (const r of rows) {
    const run = byRun.get(r.runId);
    if (!run) continue;
    run.counts[r.status] += r._count._all;
    if (r.status !== 'done') continue;
    run.done.push({
      outcome: r.outcome,
      failureCategory: r.failureCategory,
      errorKind: r.errorKind,
      count: r._count._all,
      steps: r._sum.steps ?? 0,
      reward: r._sum.reward ?? 0,
      rewarded: r._count.reward,
    });
  }
  const out = new Map<string, RunAggregate>();
  for (const [id, { counts, done }] of byRun) {
    const metrics = metricsOfGroups(done);
    out.set(id, {
      counts,
      metrics,
      outcome: runOutcome({ done: counts.done, errors: metrics.errors }),
    });
  }
  return out;
}

const EMPTY: RunAggregate = {
  counts: { queued: 0, running: 0, done: 0 },
  metrics: metricsOfGroups([]),
  outcome: 'pending',
};

export function summaryOf(run: SummaryRow, agg: RunAggregate | undefined): RunSummary {
  const {
    spec: rawSpec,
    rewardParams,
    policyOptions,
    invalidLoopLimit,
    groupSize,
    harnessVersion,
    baselineOfRigs,
    validatedCandidates,
    ...info
  } = run;
  const where = `Run ${run.id}`;
  const spec = parseColumn(HarnessSpecSchema, rawSpec, `${where} spec`);
  const { counts, metrics, outcome } = agg ?? EMPTY;
  return {
    ...toRunInfo(info),
    // The count of done episodes read with the metrics: the run row's counter may be a commit
    // older or newer, and every view of a run shows this one.
    episodesDone: counts.done,
    spec,
    rewardParams: parseColumn(RunParamsSchema, rewardParams ?? {}, `${where} rewardParams`),
    policyOptions: parseOptionalColumn(
      PolicyOptionsSchema,
      policyOptions,
      `${where} policyOptions`,
    ),
    invalidLoopLimit: parseOptionalColumn(
      InvalidLoopLimitSchema,
      invalidLoopLimit,
      `${where} invalidLoopLimit`,
    ),
    groupSize,
    metrics,
    counts,
    outcome,
    lineage: lineageOf({ harnessVersion, baselineOfRigs, validatedCandidates }, spec),
  };
}

export async function getRunSummary(db: Db, runId: string): Promise<RunSummary> {
  const run = await db.run.findUnique({ where: { id: runId }, select: runSummarySelect });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  return summaryOf(run, (await runAggregates(db, [runId])).get(runId));
}

/** Summaries of many runs in the order given: two queries, whatever the number of runs. */
export async function runSummaries(db: Db, where: Prisma.RunWhereInput, order: string[]) {
  const rows = await db.run.findMany({ where, select: runSummarySelect });
  const aggregates = await runAggregates(
    db,
    rows.map((r) => r.id),
  );
  const byId = new Map(rows.map((r) => [r.id, summaryOf(r, aggregates.get(r.id))]));
  return order.flatMap((id) => byId.get(id) ?? []);
}

/** A run as lists show it: the summary without the spec body, plus where it ran. */
export function runListItem(s: RunSummary) {
  const { spec, rewardParams: _rewardParams, policyOptions: _policyOptions, ...rest } = s;
  const base = firstBase(spec.env);
  return {
    ...rest,
    bridge: base.bridge,
    task: base.task,
    harnessed: spec.env.type !== 'base',
  };
}
export type RunListItem = ReturnType<typeof runListItem>;
