// Reading runs back: summaries with metrics, lists by cursor, episodes, trajectories page by page,
// and whole runs for export. Every function takes the database it reads.
import type { Action, Evaluation } from '../../bridges/core/types.ts';
import { JsonSchemaZ } from '../../contracts/json.ts';
import { type EpisodeLlm, EpisodeLlmSchema, StepLlmSchema } from '../../contracts/llm.ts';
import {
  type CostAwareReward,
  CostAwareRewardSchema,
  EvaluationSchema,
  type FailureCategory,
  type LegVerdict,
  LegVerdictsSchema,
} from '../../contracts/runs.ts';
import { ActionSchema } from '../../contracts/spec.ts';
import { LayerChangesSchema, StepInfoSchema, type StepRecord } from '../../contracts/steps.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { parseColumn, parseOptionalColumn } from '../db/json.ts';
import {
  episodeListSelect,
  pageEpisodes,
  pageRuns,
  pageSteps,
  type stepSelect,
} from '../db/queries.ts';
import { NotFoundError } from '../errors.ts';
import { decodeCommands } from './step-rows.ts';
import { getRunSummary, type RunInfo, runListItem, toRunInfo } from './summary.ts';

export { runsPage } from './run-list.ts';
export {
  getRunSummary,
  type RunInfo,
  type RunListItem,
  type RunSummary,
  runListItem,
  toRunInfo,
} from './summary.ts';

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
  'startedAt' | 'finishedAt' | 'costReward' | 'evaluation' | 'legVerdicts' | 'llm'
> & {
  costReward: CostAwareReward | null;
  llm: EpisodeLlm | null;
  evaluation: Evaluation | null;
  legVerdicts: LegVerdict[] | null;
  startedAt: string | null;
  finishedAt: string | null;
};

const EPISODE_SELECT = {
  ...episodeListSelect,
  initialObservation: true,
  costReward: true,
  evaluation: true,
  legVerdicts: true,
  llm: true,
} as const satisfies Prisma.EpisodeSelect;

function toEpisodeInfo(row: EpisodeRow): EpisodeInfo {
  const where = `Episode ${row.id}`;
  return {
    ...row,
    costReward: parseOptionalColumn(CostAwareRewardSchema, row.costReward, `${where} costReward`),
    evaluation: parseOptionalColumn(EvaluationSchema, row.evaluation, `${where} evaluation`),
    legVerdicts: parseOptionalColumn(LegVerdictsSchema, row.legVerdicts, `${where} legVerdicts`),
    llm: parseOptionalColumn(EpisodeLlmSchema, row.llm, `${where} llm`),
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

/**
 * A stored step, its JSON columns parsed with the contracts' schemas; `commandTable`: its episode's
 * (Episode.commandTable), which interned commands index (step-rows.ts).
 */
export function toStepRecord(row: StepRow, commandTable?: unknown): StepRecord {
  const where = `Step ${row.episodeId}#${row.index}`;
  const info = parseColumn(StepInfoSchema, row.info, `${where} info`);
  if (row.commands !== null) {
    info.admissibleCommands = decodeCommands(row.commands, commandTable, where);
  }
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
    info,
    invalid: row.invalid,
    changes: parseColumn(LayerChangesSchema, row.changes, `${where} changes`),
  };
  if (row.blocked !== null) record.blocked = row.blocked;
  if (row.leg !== null) record.leg = row.leg;
  if (row.state !== null && row.state !== undefined) record.state = json(row.state, 'state');
  if (row.meta !== null && row.meta !== undefined) record.meta = json(row.meta, 'meta');
  if (row.llm !== null && row.llm !== undefined)
    record.llm = parseColumn(StepLlmSchema, row.llm, `${where} llm`);
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
  const table = page.items.some((r) => r.commands !== null)
    ? (
        await db.episode.findUnique({
          where: { id: episodeId },
          select: { commandTable: true },
        })
      )?.commandTable
    : undefined;
  return {
    items: page.items.map((row) => toStepRecord(row, table)),
    nextCursor: page.next ?? null,
  };
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

/** An episode with its run's list view and the spec it ran on (the trajectory page's header). */
export async function episodeView(db: Db, id: string) {
  const episode = await getEpisode(db, id);
  const run = await getRunSummary(db, episode.runId);
  return { episode, run: runListItem(run), spec: run.spec };
}
