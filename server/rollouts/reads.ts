// Reading runs back: summaries with metrics, lists by cursor, episodes, trajectories page by page,
// and whole runs for export. Every function takes the database it reads.
import type { Action, Evaluation } from '../../bridges/core/types.ts';
import { JsonSchemaZ } from '../../contracts/json.ts';
import {
  type CostAwareReward,
  CostAwareRewardSchema,
  EvaluationSchema,
  type FailureCategory,
  InvalidLoopLimitSchema,
  type LegVerdict,
  LegVerdictsSchema,
  type PolicyOptions,
  PolicyOptionsSchema,
  type RunParams,
  RunParamsSchema,
} from '../../contracts/runs.ts';
import {
  ActionSchema,
  firstBase,
  type HarnessSpec,
  HarnessSpecSchema,
} from '../../contracts/spec.ts';
import { LayerChangesSchema, StepInfoSchema, type StepRecord } from '../../contracts/steps.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { parseColumn, parseOptionalColumn } from '../db/json.ts';
import {
  episodeListSelect,
  pageEpisodes,
  pageRuns,
  pageSteps,
  runListSelect,
  type stepSelect,
} from '../db/queries.ts';
import { NotFoundError } from '../errors.ts';
import { computeMetrics, type RunMetrics } from './metrics.ts';

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
  /** Consecutive invalid actions that end an episode; null: the default limit. */
  invalidLoopLimit: number | null;
  metrics: RunMetrics;
  counts: { queued: number; running: number; done: number };
}

function toRunInfo(row: RunRow): RunInfo {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getRunSummary(db: Db, runId: string): Promise<RunSummary> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      ...runListSelect,
      spec: true,
      rewardParams: true,
      policyOptions: true,
      invalidLoopLimit: true,
    },
  });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  const episodes = await db.episode.findMany({
    where: { runId },
    select: {
      status: true,
      outcome: true,
      failureCategory: true,
      errorKind: true,
      steps: true,
      reward: true,
    },
  });
  const counts = { queued: 0, running: 0, done: 0 };
  for (const e of episodes) counts[e.status] += 1;
  const { spec, rewardParams, policyOptions, invalidLoopLimit, ...info } = run;
  const where = `Run ${runId}`;
  return {
    ...toRunInfo(info),
    spec: parseColumn(HarnessSpecSchema, spec, `${where} spec`),
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
    metrics: computeMetrics(episodes.filter((e) => e.status === 'done')),
    counts,
  };
}

export async function listRuns(
  db: Db,
  options: { limit?: number; cursor?: string; status?: string; projectId?: string } = {},
): Promise<{ items: RunInfo[]; nextCursor: string | null }> {
  const page = await pageRuns(db, {
    take: Math.min(Math.max(options.limit ?? 50, 1), 200),
    ...(options.cursor ? { cursor: options.cursor } : {}),
    where: {
      ...(options.status ? { status: options.status as 'queued' } : {}),
      ...(options.projectId ? { projectId: options.projectId } : {}),
    },
  });
  return { items: page.items.map(toRunInfo), nextCursor: page.next ?? null };
}

type EpisodeRow = Prisma.EpisodeGetPayload<{ select: typeof EPISODE_SELECT }>;

export type EpisodeInfo = Omit<
  EpisodeRow,
  'startedAt' | 'finishedAt' | 'costReward' | 'evaluation' | 'legVerdicts'
> & {
  costReward: CostAwareReward | null;
  evaluation: Evaluation | null;
  legVerdicts: LegVerdict[] | null;
  startedAt: string | null;
  finishedAt: string | null;
};

const EPISODE_SELECT = {
  ...episodeListSelect,
  costReward: true,
  evaluation: true,
  legVerdicts: true,
} as const satisfies Prisma.EpisodeSelect;

function toEpisodeInfo(row: EpisodeRow): EpisodeInfo {
  const where = `Episode ${row.id}`;
  return {
    ...row,
    costReward: parseOptionalColumn(CostAwareRewardSchema, row.costReward, `${where} costReward`),
    evaluation: parseOptionalColumn(EvaluationSchema, row.evaluation, `${where} evaluation`),
    legVerdicts: parseOptionalColumn(LegVerdictsSchema, row.legVerdicts, `${where} legVerdicts`),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getEpisode(db: Db, episodeId: string): Promise<EpisodeInfo> {
  const row = await db.episode.findUnique({ where: { id: episodeId }, select: EPISODE_SELECT });
  if (!row) throw new NotFoundError(`episode '${episodeId}' not found`);
  return toEpisodeInfo(row);
}

export interface EpisodeFilter {
  outcome?: 'success' | 'failure' | 'error';
  failureCategory?: FailureCategory;
  errorKind?: 'harness' | 'policy' | 'infra';
  status?: 'queued' | 'running' | 'done';
  /** Ordinal to continue after. */
  cursor?: number;
  limit?: number;
}

export async function listEpisodes(
  db: Db,
  runId: string,
  filter: EpisodeFilter = {},
): Promise<{ items: EpisodeInfo[]; nextCursor: number | null }> {
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
  const rows = await db.episode.findMany({
    where: {
      runId,
      ...(filter.outcome ? { outcome: filter.outcome } : {}),
      ...(filter.failureCategory ? { failureCategory: filter.failureCategory } : {}),
      ...(filter.errorKind ? { errorKind: filter.errorKind } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.cursor !== undefined ? { ordinal: { gt: filter.cursor } } : {}),
    },
    orderBy: { ordinal: 'asc' },
    take: limit + 1,
    select: EPISODE_SELECT,
  });
  const items = rows.slice(0, limit).map(toEpisodeInfo);
  return {
    items,
    nextCursor: rows.length > limit ? (items[items.length - 1]?.ordinal ?? null) : null,
  };
}

/** The list view of a run's finished episodes (no per-episode JSON), for the run page. */
export async function pageFinishedEpisodes(
  db: Db,
  runId: string,
  o: {
    outcome?: 'success' | 'failure' | 'error';
    failureCategory?: FailureCategory;
    cursor?: number | null;
    limit: number;
  },
) {
  const page = await pageEpisodes(db, runId, {
    take: o.limit,
    where: {
      status: 'done',
      ...(o.outcome ? { outcome: o.outcome } : {}),
      ...(o.failureCategory ? { failureCategory: o.failureCategory } : {}),
    },
    ...(o.cursor !== null && o.cursor !== undefined ? { after: o.cursor } : {}),
  });
  return {
    items: page.items.map((e) => ({
      ...e,
      startedAt: e.startedAt?.toISOString() ?? null,
      finishedAt: e.finishedAt?.toISOString() ?? null,
    })),
    nextCursor: page.next ?? null,
  };
}

type StepRow = Omit<Prisma.StepGetPayload<{ select: typeof stepSelect }>, 'attempt'>;

/** A stored step, its JSON columns parsed with the contracts' schemas. */
export function toStepRecord(row: StepRow): StepRecord {
  const where = `Step ${row.episodeId}#${row.index}`;
  const json = (value: unknown, what: string) =>
    parseColumn(JsonSchemaZ, value, `${where} ${what}`);
  const obs = (text: string, data: unknown, what: string) =>
    data === null || data === undefined ? { text } : { text, data: json(data, what) };
  const record: StepRecord = {
    index: row.index,
    action: parseColumn(ActionSchema, row.action, `${where} action`),
    executedAction: parseOptionalColumn(
      ActionSchema,
      row.executedAction,
      `${where} executedAction`,
    ),
    rawObservation:
      row.rawObservation === null
        ? null
        : obs(row.rawObservation, row.rawObservationData, 'rawObservationData'),
    observation: obs(row.observation, row.observationData, 'observationData'),
    reward: row.reward,
    terminated: row.terminated,
    truncated: row.truncated,
    info: parseColumn(StepInfoSchema, row.info, `${where} info`),
    invalid: row.invalid,
    changes: parseColumn(LayerChangesSchema, row.changes, `${where} changes`),
  };
  if (row.blocked !== null) record.blocked = row.blocked;
  if (row.leg !== null) record.leg = row.leg;
  if (row.state !== null && row.state !== undefined) record.state = json(row.state, 'state');
  if (row.meta !== null && row.meta !== undefined) record.meta = json(row.meta, 'meta');
  return record;
}

/** One page of an episode's trajectory, ordered by step index; `cursor` is the last index seen. */
export async function getSteps(
  db: Db,
  episodeId: string,
  options: { cursor?: number; limit?: number } = {},
): Promise<{ items: StepRecord[]; nextCursor: number | null }> {
  const page = await pageSteps(db, episodeId, {
    take: Math.min(Math.max(options.limit ?? 100, 1), 500),
    ...(options.cursor !== undefined ? { after: options.cursor } : {}),
  });
  return { items: page.items.map(toStepRecord), nextCursor: page.next ?? null };
}

/** An episode's whole trajectory, read page by page. */
export async function readTrajectory(db: Db, episodeId: string): Promise<StepRecord[]> {
  const trajectory: StepRecord[] = [];
  let cursor: number | undefined;
  for (;;) {
    const page = await getSteps(db, episodeId, {
      limit: 500,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    trajectory.push(...page.items);
    if (page.nextCursor === null) return trajectory;
    cursor = page.nextCursor;
  }
}

/** Every episode of a run (finished ones, or all) with its whole trajectory, one at a time. */
export async function* episodesWithTrajectories(
  db: Db,
  runId: string,
  o: { status?: 'done' } = {},
): AsyncGenerator<EpisodeInfo & { trajectory: StepRecord[] }> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  let cursor: number | undefined;
  for (;;) {
    const page = await listEpisodes(db, runId, {
      limit: 100,
      ...(o.status ? { status: o.status } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    for (const episode of page.items) {
      yield { ...episode, trajectory: await readTrajectory(db, episode.id) };
    }
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}

/** Every finished episode of a run with its whole trajectory (JSONL export). */
export function exportRun(
  db: Db,
  runId: string,
): AsyncGenerator<EpisodeInfo & { trajectory: StepRecord[] }> {
  return episodesWithTrajectories(db, runId, { status: 'done' });
}

/** Ids of the newest runs that include a task (the task page's run list). */
export async function runIdsOfTask(
  db: Db,
  o: { task: string; projectId?: string | null; limit: number },
): Promise<string[]> {
  const rows = await db.run.findMany({
    where: { taskIds: { has: o.task }, ...(o.projectId ? { projectId: o.projectId } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: o.limit,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Which steps are blocked, invalid, changed by a layer or rewarded — only indices cross the wire. */
export async function stepFlags(db: Db, episodeId: string) {
  const rows = await db.$queryRaw<
    { index: number; invalid: boolean; blocked: boolean; changed: boolean; rewarded: boolean }[]
  >`SELECT "index", "invalid", ("blocked" IS NOT NULL) AS "blocked",
           (jsonb_typeof("changes") = 'array' AND jsonb_array_length("changes") > 0) AS "changed",
           ("reward" <> 0) AS "rewarded"
    FROM "Step" WHERE "episodeId" = ${episodeId} ORDER BY "index"`;
  const pick = (key: 'invalid' | 'blocked' | 'changed' | 'rewarded') =>
    rows.filter((r) => r[key]).map((r) => r.index);
  return {
    total: rows.length,
    invalid: pick('invalid'),
    blocked: pick('blocked'),
    changed: pick('changed'),
    rewarded: pick('rewarded'),
  };
}

/** The agent's actions of an episode in step order (up to step `through`, at most `limit`). */
export async function episodeActions(
  db: Db,
  episodeId: string,
  o: { through?: number; limit?: number } = {},
): Promise<Action[]> {
  const rows = await db.step.findMany({
    where: { episodeId, ...(o.through !== undefined ? { index: { lte: o.through } } : {}) },
    orderBy: { index: 'asc' },
    ...(o.limit !== undefined ? { take: o.limit } : {}),
    select: { index: true, action: true },
  });
  return rows.map((r) =>
    parseColumn(ActionSchema, r.action, `Step ${episodeId}#${r.index} action`),
  );
}

/** A run as lists show it: the summary without the spec body, plus where it ran. */
export function runListItem(s: RunSummary) {
  const { spec, rewardParams: _rewardParams, policyOptions: _policyOptions, ...rest } = s;
  const base = firstBase(spec.env);
  return { ...rest, bridge: base.bridge, task: base.task, harnessed: spec.env.type !== 'base' };
}

/** The runs page (or a task's runs), newest first, each with its summary. */
export async function runsPage(
  db: Db,
  o: {
    limit: number;
    cursor?: string | null | undefined;
    task?: string | undefined;
    bridge?: string | undefined;
    projectId?: string | null;
  },
) {
  let ids: string[];
  let nextCursor: string | null = null;
  if (o.task) {
    ids = await runIdsOfTask(db, { task: o.task, projectId: o.projectId ?? null, limit: o.limit });
  } else {
    const page = await listRuns(db, {
      limit: o.limit,
      ...(o.cursor ? { cursor: o.cursor } : {}),
      ...(o.projectId ? { projectId: o.projectId } : {}),
    });
    ids = page.items.map((r) => r.id);
    nextCursor = page.nextCursor;
  }
  const items = (await Promise.all(ids.map((id) => getRunSummary(db, id))))
    .map(runListItem)
    .filter((r) => !o.bridge || r.bridge === o.bridge);
  return { items, nextCursor };
}

/** An episode with its run's list view and the spec it ran on (the trajectory page's header). */
export async function episodeView(db: Db, id: string) {
  const episode = await getEpisode(db, id);
  const run = await getRunSummary(db, episode.runId);
  return { episode, run: runListItem(run), spec: run.spec };
}
