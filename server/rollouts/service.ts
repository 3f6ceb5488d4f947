// The run service: launch a run (Run + Episode rows, then dispatch to the embedded queue or BullMQ),
// wait for it, read it back page by page, and resume what a dead process left unfinished. The tRPC
// routers, the CLI and the EnvRigger all call these functions.
import { z } from 'zod';
import type { Json } from '../../bridges/core/types.ts';
import { config } from '../config.ts';
import { episodeListSelect } from '../db/queries.ts';
import { InvalidInputError, InvalidSpecError, NotFoundError } from '../errors.ts';
import { type HarnessSpec, HarnessSpecSchema, JsonSchemaZ } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';
import { hasRolloutDbOverride, rolloutDb } from './db.ts';
import { rolloutEngine } from './engine.ts';
import { firstBase } from './episode.ts';
import { listRunEvents, notifyRuns, subscribeRun } from './events.ts';
import { LocalQueue } from './local-queue.ts';
import { computeMetrics, type RunMetrics } from './metrics.ts';
import { DEFAULT_MAX_STEPS } from './types.ts';

export const RewardParamsSchema = z.strictObject({
  success: z.number(),
  tMax: z.number().positive(),
  lambdaEff: z.number(),
  lambdaDivMax: z.number(),
  annealUpdates: z.number().int().min(0),
  update: z.number().int().min(0),
  lambdaSpam: z.number(),
  lambdaInv: z.number(),
  spamCap: z.number().int().min(0),
});

export const LaunchRunInputSchema = z.object({
  /** A HarnessSpec (validated here). */
  spec: z.unknown(),
  policy: z.string().min(1),
  /** Defaults to the spec's base task. */
  taskIds: z.array(z.string().min(1)).min(1).max(1000).optional(),
  /** Seeds per task; ignored when `seeds` is given. */
  k: z.number().int().min(1).max(100_000).default(1),
  seeds: z
    .array(z.number().int().min(-2_147_483_648).max(2_147_483_647))
    .min(1)
    .max(100_000)
    .optional(),
  /** First seed: seeds are seed, seed+1, … seed+k−1. */
  seed: z.number().int().min(-2_147_483_648).max(2_147_483_647).default(0),
  maxSteps: z.number().int().min(1).max(100_000).default(DEFAULT_MAX_STEPS),
  concurrency: z.number().int().min(1).max(64).optional(),
  queue: z.enum(['local', 'bullmq']).optional(),
  kind: z.enum(['baseline', 'validation', 'rig', 'adhoc']).default('adhoc'),
  harnessVersionId: z.string().optional(),
  rewardParams: RewardParamsSchema.partial().optional(),
  /** Consecutive invalid actions that end an episode (invalid_action_loop). */
  invalidLoopLimit: z.number().int().min(1).max(10_000).optional(),
  projectId: z.string().optional(),
  createdBy: z.string().optional(),
  /** Handed to the policy (PolicyContext.options), e.g. skill tags; stored with the run's settings. */
  policyOptions: z.record(z.string(), JsonSchemaZ).optional(),
});
export type LaunchRunInput = z.input<typeof LaunchRunInputSchema>;

export const MAX_EPISODES_PER_RUN = 100_000;

let local: LocalQueue | undefined;

export function localQueue(): LocalQueue {
  local ??= new LocalQueue(config().ROLLOUT_CONCURRENCY);
  return local;
}

export function parseRunSpec(input: unknown): HarnessSpec {
  const parsed = HarnessSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidSpecError(
      `invalid spec at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown problem'}`,
    );
  }
  return parsed.data;
}

export async function launchRun(raw: LaunchRunInput): Promise<{ runId: string }> {
  const parsed = LaunchRunInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(
      `${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const input = parsed.data;
  const spec = parseRunSpec(input.spec);
  const taskIds = input.taskIds ?? [firstBase(spec.env).task];
  if (new Set(taskIds).size !== taskIds.length)
    throw new InvalidInputError('taskIds: duplicate task');
  const seeds = input.seeds ?? Array.from({ length: input.k }, (_, i) => input.seed + i);
  if (new Set(seeds).size !== seeds.length) throw new InvalidInputError('seeds: duplicate seed');
  const total = taskIds.length * seeds.length;
  if (total > MAX_EPISODES_PER_RUN) {
    throw new InvalidInputError(
      `a run is limited to ${MAX_EPISODES_PER_RUN} episodes (asked ${total})`,
    );
  }
  // Scale-out by configuration: Redis for the jobs and a PostgreSQL the workers share.
  const queue = input.queue ?? (config().REDIS_URL && config().DATABASE_URL ? 'bullmq' : 'local');
  if (queue === 'bullmq' && !config().REDIS_URL) {
    throw new InvalidInputError('queue bullmq needs REDIS_URL');
  }
  if (queue === 'bullmq' && !config().DATABASE_URL && !hasRolloutDbOverride()) {
    // Workers in other processes cannot open the embedded database of this one.
    throw new InvalidInputError(
      'queue bullmq needs DATABASE_URL (a PostgreSQL shared with the workers)',
    );
  }
  await (await rolloutEngine()).validate(spec, input.policy, taskIds);
  if (input.policyOptions?.skillBankId !== undefined) {
    // A run with a skill bank (EvoHarness): an unknown bank fails the launch, not every episode.
    await (await import('../skills/run-options.ts')).assertSkillBank(input.policyOptions);
  }

  const db = await rolloutDb();
  const rewardParams = {
    ...(input.rewardParams ?? {}),
    ...(input.invalidLoopLimit !== undefined ? { invalidLoopLimit: input.invalidLoopLimit } : {}),
    ...(input.policyOptions !== undefined ? { policyOptions: input.policyOptions } : {}),
  };
  const runId = await db.$transaction(async (tx) => {
    const run = await tx.run.create({
      data: {
        kind: input.kind,
        policy: input.policy,
        harnessVersionId: input.harnessVersionId ?? null,
        spec: spec as unknown as object,
        taskIds,
        k: seeds.length,
        seeds,
        maxSteps: input.maxSteps,
        concurrency: input.concurrency ?? null,
        queue,
        rewardParams,
        episodesTotal: total,
        projectId: input.projectId ?? null,
        createdBy: input.createdBy ?? null,
      },
      select: { id: true },
    });
    const rows = taskIds.flatMap((taskId, t) =>
      seeds.map((seed, s) => ({ runId: run.id, taskId, seed, ordinal: t * seeds.length + s })),
    );
    for (let i = 0; i < rows.length; i += 5000) {
      await tx.episode.createMany({ data: rows.slice(i, i + 5000) });
    }
    return run.id;
  });
  await dispatch(runId, queue);
  return { runId };
}

async function dispatch(runId: string, queue: 'local' | 'bullmq'): Promise<void> {
  if (queue === 'local') {
    await localQueue().enqueueRun(runId);
  } else {
    const { enqueueRunJobs } = await import('./bullmq.ts');
    await enqueueRunJobs(runId);
  }
}

export interface RunInfo {
  id: string;
  kind: string;
  policy: string;
  status: string;
  queue: string;
  harnessVersionId: string | null;
  taskIds: string[];
  k: number;
  seeds: number[];
  maxSteps: number;
  concurrency: number | null;
  episodesTotal: number;
  episodesDone: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RunSummary extends RunInfo {
  spec: HarnessSpec;
  rewardParams: Json;
  metrics: RunMetrics;
  counts: { queued: number; running: number; done: number };
}

const RUN_INFO_SELECT = {
  id: true,
  kind: true,
  policy: true,
  status: true,
  queue: true,
  harnessVersionId: true,
  taskIds: true,
  k: true,
  seeds: true,
  maxSteps: true,
  concurrency: true,
  episodesTotal: true,
  episodesDone: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

type RunInfoRow = {
  [K in keyof typeof RUN_INFO_SELECT]: K extends 'createdAt'
    ? Date
    : K extends 'startedAt' | 'finishedAt'
      ? Date | null
      : RunInfo[K];
};

function toRunInfo(row: RunInfoRow): RunInfo {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getRunSummary(runId: string): Promise<RunSummary> {
  const db = await rolloutDb();
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { ...RUN_INFO_SELECT, spec: true, rewardParams: true },
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
  const { spec, rewardParams, ...info } = run;
  return {
    ...toRunInfo(info),
    spec: spec as unknown as HarnessSpec,
    rewardParams: rewardParams as Json,
    metrics: computeMetrics(episodes.filter((e) => e.status === 'done')),
    counts,
  };
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** Resolves with the run's summary once every episode is recorded. */
export async function waitForRun(
  runId: string,
  options: {
    signal?: AbortSignal;
    onEvent?: (e: import('./events.ts').RunEventRecord) => void;
  } = {},
): Promise<RunSummary> {
  const db = await rolloutDb();
  const last = await db.runEvent.findFirst({
    where: { runId },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  if (!FINAL.has(run.status)) {
    const from = options.onEvent ? undefined : last?.id.toString();
    for await (const event of subscribeRun(runId, from, {
      untilCompleted: true,
      pollMs: 500,
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      options.onEvent?.(event);
    }
  }
  return getRunSummary(runId);
}

export async function listRuns(
  options: { limit?: number; cursor?: string; status?: string; projectId?: string } = {},
): Promise<{ items: RunInfo[]; nextCursor: string | null }> {
  const db = await rolloutDb();
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await db.run.findMany({
    where: {
      ...(options.status ? { status: options.status as 'queued' } : {}),
      ...(options.projectId ? { projectId: options.projectId } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    ...(options.cursor ? { cursor: { id: options.cursor }, skip: 1 } : {}),
    select: RUN_INFO_SELECT,
  });
  const items = rows.slice(0, limit).map(toRunInfo);
  return { items, nextCursor: rows.length > limit ? (items[items.length - 1]?.id ?? null) : null };
}

export interface EpisodeInfo {
  id: string;
  runId: string;
  taskId: string;
  seed: number;
  ordinal: number;
  status: string;
  attempt: number;
  outcome: string | null;
  failureCategory: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  steps: number;
  reward: number | null;
  costReward: Json;
  evaluation: Json;
  legVerdicts: Json;
  durationMs: number | null;
  startedAt: string | null;
  finishedAt: string | null;
}

const EPISODE_SELECT = {
  ...episodeListSelect,
  costReward: true,
  evaluation: true,
  legVerdicts: true,
} as const;

type EpisodeRow = Omit<
  EpisodeInfo,
  'startedAt' | 'finishedAt' | 'costReward' | 'evaluation' | 'legVerdicts'
> & {
  startedAt: Date | null;
  finishedAt: Date | null;
  costReward: unknown;
  evaluation: unknown;
  legVerdicts: unknown;
};

function toEpisodeInfo(row: EpisodeRow): EpisodeInfo {
  return {
    ...row,
    costReward: (row.costReward ?? null) as Json,
    evaluation: (row.evaluation ?? null) as Json,
    legVerdicts: (row.legVerdicts ?? null) as Json,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getEpisode(episodeId: string): Promise<EpisodeInfo> {
  const db = await rolloutDb();
  const row = await db.episode.findUnique({ where: { id: episodeId }, select: EPISODE_SELECT });
  if (!row) throw new NotFoundError(`episode '${episodeId}' not found`);
  return toEpisodeInfo(row);
}

export interface EpisodeFilter {
  outcome?: 'success' | 'failure' | 'error';
  failureCategory?: string;
  errorKind?: 'harness' | 'policy' | 'infra';
  status?: 'queued' | 'running' | 'done';
  /** Ordinal to continue after. */
  cursor?: number;
  limit?: number;
}

export async function listEpisodes(
  runId: string,
  filter: EpisodeFilter = {},
): Promise<{ items: EpisodeInfo[]; nextCursor: number | null }> {
  const db = await rolloutDb();
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

type StepRow = {
  index: number;
  action: unknown;
  executedAction: unknown;
  rawObservation: string | null;
  rawObservationData: unknown;
  observation: string;
  observationData: unknown;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  invalid: boolean;
  blocked: string | null;
  changes: unknown;
  info: unknown;
  leg: number | null;
  state: unknown;
  meta: unknown;
};

export function toStepRecord(row: StepRow): StepRecord {
  const obs = (text: string, data: unknown) =>
    data === null || data === undefined ? { text } : { text, data: data as Json };
  const record: StepRecord = {
    index: row.index,
    action: row.action as StepRecord['action'],
    executedAction: (row.executedAction ?? null) as StepRecord['executedAction'],
    rawObservation:
      row.rawObservation === null ? null : obs(row.rawObservation, row.rawObservationData),
    observation: obs(row.observation, row.observationData),
    reward: row.reward,
    terminated: row.terminated,
    truncated: row.truncated,
    info: row.info as StepRecord['info'],
    invalid: row.invalid,
    changes: row.changes as StepRecord['changes'],
  };
  if (row.blocked !== null) record.blocked = row.blocked;
  if (row.leg !== null) record.leg = row.leg;
  if (row.state !== null && row.state !== undefined) record.state = row.state as Json;
  if (row.meta !== null && row.meta !== undefined) record.meta = row.meta as Json;
  return record;
}

/** One page of an episode's trajectory, ordered by step index; `cursor` is the last index seen. */
export async function getSteps(
  episodeId: string,
  options: { cursor?: number; limit?: number } = {},
): Promise<{ items: StepRecord[]; nextCursor: number | null }> {
  const db = await rolloutDb();
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const rows = await db.step.findMany({
    where: {
      episodeId,
      ...(options.cursor !== undefined ? { index: { gt: options.cursor } } : {}),
    },
    orderBy: { index: 'asc' },
    take: limit + 1,
    omit: { episodeId: true, attempt: true },
  });
  const items = rows.slice(0, limit).map(toStepRecord);
  return {
    items,
    nextCursor: rows.length > limit ? (items[items.length - 1]?.index ?? null) : null,
  };
}

/** Every finished episode of a run with its whole trajectory, one at a time (for JSONL export). */
export async function* exportRun(
  runId: string,
): AsyncGenerator<EpisodeInfo & { trajectory: StepRecord[] }> {
  const db = await rolloutDb();
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!run) throw new NotFoundError(`run '${runId}' not found`);
  let cursor: number | undefined;
  while (true) {
    const page = await listEpisodes(runId, {
      status: 'done',
      limit: 100,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    for (const episode of page.items) {
      const trajectory: StepRecord[] = [];
      let stepCursor: number | undefined;
      while (true) {
        const steps = await getSteps(episode.id, {
          limit: 500,
          ...(stepCursor !== undefined ? { cursor: stepCursor } : {}),
        });
        trajectory.push(...steps.items);
        if (steps.nextCursor === null) break;
        stepCursor = steps.nextCursor;
      }
      yield { ...episode, trajectory };
    }
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
}

/**
 * Start-up recovery: episodes a dead process left queued or running are dispatched again. Their
 * attempt counter moves on at the next claim, so a late result of the dead attempt is discarded.
 */
export async function resumeUnfinishedRuns(
  options: { queue?: 'local' | 'bullmq' } = {},
): Promise<string[]> {
  const db = await rolloutDb();
  const runs = await db.run.findMany({
    where: {
      status: { in: ['queued', 'running'] },
      ...(options.queue ? { queue: options.queue } : {}),
    },
    select: { id: true, queue: true },
    orderBy: { createdAt: 'asc' },
  });
  const resumed: string[] = [];
  for (const run of runs) {
    if (run.queue === 'bullmq' && !config().REDIS_URL) continue;
    await db.episode.updateMany({
      where: { runId: run.id, status: 'running' },
      data: { status: 'queued' },
    });
    await dispatch(run.id, run.queue);
    resumed.push(run.id);
  }
  return resumed;
}

export async function cancelRun(runId: string): Promise<void> {
  const db = await rolloutDb();
  const cancelled = await db.$transaction(async (tx) => {
    // The UPDATE takes the run's row lock before the event id is drawn (see recorder.ts).
    const updated = await tx.run.updateMany({
      where: { id: runId, status: { in: ['queued', 'running'] } },
      data: { status: 'cancelled', finishedAt: new Date() },
    });
    if (updated.count === 0) return false;
    await tx.runEvent.create({
      data: { runId, type: 'run_completed', payload: { status: 'cancelled' } },
    });
    return true;
  });
  if (!cancelled) {
    const exists = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
    if (!exists) throw new NotFoundError(`run '${runId}' not found`);
    return;
  }
  notifyRuns([runId]);
}

/** Stops the embedded queue after its running episodes (tests, shutdown). */
export async function closeRollouts(): Promise<void> {
  const q = local;
  local = undefined;
  await q?.close();
}

export { listRunEvents, subscribeRun };
