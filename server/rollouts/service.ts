// The run service: launch a run (Run + Episode rows, then dispatch to the embedded queue or BullMQ),
// wait for it, read it back page by page, and resume what a dead process left unfinished. The tRPC
// routers, the CLI and the EnvRigger all call one Rollouts instance, built by the composition root
// (server/compose.ts) with its database, engine, event log and queues.
import type { z } from 'zod';
import { firstIssue } from '../../contracts/issues.ts';
import { episodeSeeds, type LaunchRunInput, LaunchRunInputSchema } from '../../contracts/launch.ts';
import { isFinalStatus, RewardParamsSchema } from '../../contracts/runs.ts';
import { firstBase } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { isUniqueViolation } from '../db/queries.ts';
import { InvalidInputError, InvalidSpecError, NotFoundError, parseInput } from '../errors.ts';
import { type HarnessSpec, HarnessSpecSchema } from '../harness/spec.ts';
import { Outage, type StatusLine } from '../outage.ts';
import { EpisodeQueue, QueueUnavailableError } from './bullmq.ts';
import { PASS_THROUGH_OPTIONS, type PolicyOptionsResolver, type RolloutEngine } from './engine.ts';
import type { RunEventRecord, RunEvents } from './events.ts';
import { LocalQueue } from './local-queue.ts';
import * as reads from './reads.ts';
import { type Resumer, startResumer } from './resume.ts';

/** Worker threads when the composition root does not say (it passes ROLLOUT_MAX_WORKERS). */
const DEFAULT_MAX_WORKERS = 8;

// The launch input is a contract: the studio's launch form validates with the same schema.
export { type LaunchRunInput, LaunchRunInputSchema, RewardParamsSchema };

export const MAX_EPISODES_PER_RUN = 100_000;

export function parseRunSpec(input: unknown): HarnessSpec {
  const parsed = HarnessSpecSchema.safeParse(input);
  if (!parsed.success) throw new InvalidSpecError(`invalid spec at ${firstIssue(parsed.error)}`);
  return parsed.data;
}

export interface RolloutDeps {
  db: Db;
  /** A PostgreSQL server can be shared with BullMQ workers in other processes; PGlite cannot. */
  dbKind: 'pglite' | 'postgres';
  engine: RolloutEngine;
  events: RunEvents;
  policyOptions?: PolicyOptionsResolver;
  /** Episodes at once per local run when the run does not say. */
  concurrency: number;
  /** The most episodes at once a run may ask for (ROLLOUT_MAX_CONCURRENCY); default `maxWorkers`. */
  maxConcurrency?: number;
  /** Episode worker threads of this process, all local runs together (ROLLOUT_MAX_WORKERS). */
  maxWorkers?: number;
  /** Redis for BullMQ scale-out; unset: every run uses the embedded queue. */
  redisUrl?: string;
  queueName?: string;
  /** Where status lines go ("queue unavailable, retrying"; stderr by default). */
  status?: StatusLine;
  /** How long a launch waits for an unreachable Redis before leaving its run to the resumer. */
  queueTimeoutMs?: number;
}

export class Rollouts {
  readonly db: Db;
  readonly events: RunEvents;
  private local: LocalQueue | undefined;
  private bullmq: EpisodeQueue | undefined;
  private readonly policyOptions: PolicyOptionsResolver;
  /** Redis as the producer sees it: one status line per outage. */
  readonly queueOutage: Outage;
  private readonly resumers = new Set<() => void>();
  private readonly readyListeners = new Set<() => void>();

  constructor(private readonly deps: RolloutDeps) {
    this.db = deps.db;
    this.events = deps.events;
    this.policyOptions = deps.policyOptions ?? PASS_THROUGH_OPTIONS;
    this.queueOutage = new Outage('queue', deps.status);
  }

  private get maxWorkers(): number {
    return this.deps.maxWorkers ?? DEFAULT_MAX_WORKERS;
  }

  /** The most episodes at once one run may ask for. */
  get maxConcurrency(): number {
    return this.deps.maxConcurrency ?? this.maxWorkers;
  }

  /** The embedded queue (created on first use). */
  localQueue(): LocalQueue {
    this.local ??= new LocalQueue({
      db: this.db,
      events: this.events,
      engine: this.deps.engine,
      policyOptions: this.policyOptions,
      concurrency: this.deps.concurrency,
      maxWorkers: this.maxWorkers,
    });
    return this.local;
  }

  private episodeQueue(): EpisodeQueue {
    const redisUrl = this.deps.redisUrl;
    if (!redisUrl) throw new InvalidInputError('BullMQ needs REDIS_URL');
    this.bullmq ??= new EpisodeQueue({
      db: this.db,
      redisUrl,
      outage: this.queueOutage,
      // A Redis that is back (maybe empty) gets the jobs of unfinished runs at once.
      onReady: () => {
        for (const listener of this.readyListeners) listener();
      },
      ...(this.deps.queueName ? { name: this.deps.queueName } : {}),
      ...(this.deps.queueTimeoutMs !== undefined ? { timeoutMs: this.deps.queueTimeoutMs } : {}),
    });
    return this.bullmq;
  }

  /**
   * `o.runId` makes the launch idempotent (the EnvRigger names a run after its rig, round and
   * iteration): when a run of that id exists it is returned as it is, never launched twice.
   */
  async launchRun(raw: LaunchRunInput, o: { runId?: string } = {}): Promise<{ runId: string }> {
    if (o.runId && (await this.runExists(o.runId))) return { runId: o.runId };
    const input = parseInput(LaunchRunInputSchema, raw);
    if (input.concurrency !== undefined && input.concurrency > this.maxConcurrency) {
      // A server-side check beside the schema's: the cap is this machine's (ROLLOUT_MAX_CONCURRENCY).
      throw new InvalidInputError(
        `concurrency: ${input.concurrency} episodes at once is more than this server allows (at most ${this.maxConcurrency}; ROLLOUT_MAX_CONCURRENCY)`,
      );
    }
    const spec = parseRunSpec(input.spec);
    const taskIds = input.taskIds ?? [firstBase(spec.env).task];
    if (new Set(taskIds).size !== taskIds.length)
      throw new InvalidInputError('taskIds: duplicate task');
    const plan = episodeSeeds(input);
    const seeds = plan.map((p) => p.seed);
    if (new Set(seeds).size !== seeds.length) throw new InvalidInputError('seeds: duplicate seed');
    const total = taskIds.length * seeds.length;
    if (total > MAX_EPISODES_PER_RUN) {
      throw new InvalidInputError(
        `a run is limited to ${MAX_EPISODES_PER_RUN} episodes (asked ${total})`,
      );
    }
    const queue = this.queueFor(input.queue);
    await this.deps.engine.validate(spec, input.policy, taskIds, input.policyOptions);
    // E.g. a run with a skill bank (EvoHarness): an unknown bank fails the launch, not every episode.
    await this.policyOptions.check(input.policyOptions);

    let runId: string;
    try {
      runId = await this.createRun(input, spec, { taskIds, plan, total, queue }, o);
    } catch (e) {
      // Another process launched the same named run first: that one is the run.
      if (o.runId && isUniqueViolation(e)) return { runId: o.runId };
      throw e;
    }
    await this.dispatch(runId, queue);
    return { runId };
  }

  private async runExists(runId: string): Promise<boolean> {
    return (await this.db.run.count({ where: { id: runId } })) > 0;
  }

  private createRun(
    input: z.output<typeof LaunchRunInputSchema>,
    spec: HarnessSpec,
    r: {
      taskIds: string[];
      plan: { seed: number; startSeed: number | null }[];
      total: number;
      queue: 'local' | 'bullmq';
    },
    o: { runId?: string },
  ): Promise<string> {
    const { taskIds, plan, total, queue } = r;
    const seeds = plan.map((p) => p.seed);
    return this.db.$transaction(async (tx) => {
      const run = await tx.run.create({
        data: {
          ...(o.runId ? { id: o.runId } : {}),
          kind: input.kind,
          policy: input.policy,
          harnessVersionId: input.harnessVersionId ?? null,
          spec: spec as unknown as object,
          // Lists filter and sort on the first base leaf, the task the policy is told it plays.
          ...firstBase(spec.env),
          taskIds,
          k: seeds.length,
          seeds,
          maxSteps: input.maxSteps,
          concurrency: input.concurrency ?? null,
          queue,
          rewardParams: input.rewardParams ?? {},
          invalidLoopLimit: input.invalidLoopLimit ?? null,
          groupSize: input.groupSize,
          // A JSON column takes null as Prisma.DbNull only; no options: the column stays null.
          ...(input.policyOptions !== undefined ? { policyOptions: input.policyOptions } : {}),
          episodesTotal: total,
          projectId: input.projectId ?? null,
          createdBy: input.createdBy ?? null,
        },
        select: { id: true },
      });
      const rows = taskIds.flatMap((taskId, t) =>
        plan.map(({ seed, startSeed }, s) => ({
          runId: run.id,
          taskId,
          seed,
          startSeed,
          ordinal: t * plan.length + s,
        })),
      );
      for (let i = 0; i < rows.length; i += 5000) {
        await tx.episode.createMany({ data: rows.slice(i, i + 5000) });
      }
      return run.id;
    });
  }

  /** Where a launch that names no queue goes: BullMQ with Redis and a shared PostgreSQL, else local. */
  preferredQueue(): 'local' | 'bullmq' {
    return this.queueFor(undefined);
  }

  /** Scale-out by configuration: Redis for the jobs and a PostgreSQL the workers share. */
  private queueFor(asked: 'local' | 'bullmq' | undefined): 'local' | 'bullmq' {
    const shared = this.deps.dbKind === 'postgres';
    const queue = asked ?? (this.deps.redisUrl && shared ? 'bullmq' : 'local');
    if (queue === 'bullmq' && !this.deps.redisUrl) {
      throw new InvalidInputError('queue bullmq needs REDIS_URL');
    }
    if (queue === 'bullmq' && !shared) {
      // Workers in other processes cannot open the embedded database of this one.
      throw new InvalidInputError(
        'queue bullmq needs DATABASE_URL (a PostgreSQL shared with the workers)',
      );
    }
    return queue;
  }

  private async dispatch(runId: string, queue: 'local' | 'bullmq'): Promise<void> {
    if (queue === 'local') {
      await this.localQueue().enqueueRun(runId);
      return;
    }
    try {
      await this.episodeQueue().enqueueRun(runId);
    } catch (e) {
      // The run and its episodes are in the database, queued: the launch stands, and a resumer
      // (the studio's, the launching CLI's, `harness resume`) puts the jobs on when Redis is back.
      if (!(e instanceof QueueUnavailableError)) throw e;
    }
  }

  /** Resolves with the run's summary once every episode is recorded. */
  async waitForRun(
    runId: string,
    options: { signal?: AbortSignal; onEvent?: (e: RunEventRecord) => void } = {},
  ): Promise<reads.RunSummary> {
    const status = () => this.db.run.findUnique({ where: { id: runId }, select: { status: true } });
    const run = await status();
    if (!run) throw new NotFoundError(`run '${runId}' not found`);
    const stream = { pollMs: 500, ...(options.signal ? { signal: options.signal } : {}) };
    if (isFinalStatus(run.status)) return this.getRunSummary(runId);
    if (options.onEvent) {
      for await (const event of this.events.subscribe(runId, undefined, {
        ...stream,
        untilCompleted: true,
      })) {
        options.onEvent(event);
      }
    } else {
      // Nobody reads the events: look at the run's status when woken instead of reading (and
      // parsing) every event of the run — two or three per episode, a good part of a producer's CPU.
      // A wake from this process's recorder for a batch that ended no run needs no look.
      for await (const mayHaveEnded of this.events.wakes(runId, stream)) {
        if (!mayHaveEnded) continue;
        const now = await status();
        if (!now || isFinalStatus(now.status)) break;
        // A busy run wakes its waiters at every write (hundreds a second): one look per 25 ms.
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    return this.getRunSummary(runId);
  }

  /**
   * Start-up recovery: every unfinished run is dispatched again. A local run's episodes that a dead
   * process left running are queued and run here; their attempt counter moves on at the next claim,
   * so a late result of the dead attempt is discarded. A BullMQ run gets a job back for each
   * unfinished episode whose job Redis no longer holds (its statuses stay as they are: a live
   * worker still records its attempt). Runs on a queue that does not answer are left for the
   * periodic resumer.
   */
  async resumeUnfinishedRuns(options: { queue?: 'local' | 'bullmq' } = {}): Promise<string[]> {
    const runs = await this.db.run.findMany({
      where: {
        status: { in: ['queued', 'running'] },
        ...(options.queue ? { queue: options.queue } : {}),
      },
      select: { id: true, queue: true },
      orderBy: { createdAt: 'asc' },
    });
    const resumed: string[] = [];
    let queueDown = false;
    for (const run of runs) {
      if (run.queue === 'bullmq' && (!this.deps.redisUrl || queueDown)) continue;
      try {
        if (await this.resumeRun(run.id)) resumed.push(run.id);
      } catch (e) {
        if (!(e instanceof QueueUnavailableError)) throw e;
        queueDown = true; // reported once by the outage; the resumer tries again
      }
    }
    return resumed;
  }

  /**
   * Dispatches one run's unfinished episodes again (`harness resume --run`, start-up recovery);
   * false when the run is already finished. Throws QueueUnavailableError when its queue is Redis
   * and Redis does not answer.
   */
  async resumeRun(runId: string): Promise<boolean> {
    const run = await this.db.run.findUnique({
      where: { id: runId },
      select: { status: true, queue: true },
    });
    if (!run) throw new NotFoundError(`run '${runId}' not found`);
    if (isFinalStatus(run.status)) return false;
    if (run.queue === 'local') {
      await this.db.episode.updateMany({
        where: { runId, status: 'running' },
        data: { status: 'queued' },
      });
      await this.localQueue().enqueueRun(runId);
    } else {
      await this.episodeQueue().enqueueRun(runId, { onlyMissing: true });
    }
    return true;
  }

  /**
   * The database is the source of truth for BullMQ runs: every `intervalMs` (0: never), and each
   * time the Redis connection is ready again, the unfinished episodes of unfinished BullMQ runs
   * (or of `runId` only) whose jobs Redis lost get them back (resume.ts). Run by the studio, and by
   * the CLI while it follows a run it launched.
   */
  startResumer(o: { intervalMs: number; runId?: string }): Resumer {
    if (!this.deps.redisUrl) return { stop: () => undefined };
    const resumer = startResumer({
      db: this.db,
      enqueueMissing: (runId) => this.episodeQueue().enqueueRun(runId, { onlyMissing: true }),
      onReady: (listener) => {
        this.readyListeners.add(listener);
        return () => this.readyListeners.delete(listener);
      },
      ...o,
    });
    const stop = () => {
      resumer.stop();
      this.resumers.delete(stop);
    };
    this.resumers.add(stop);
    return { stop };
  }

  async cancelRun(runId: string): Promise<void> {
    const cancelled = await this.db.$transaction(async (tx) => {
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
      const exists = await this.db.run.findUnique({ where: { id: runId }, select: { id: true } });
      if (!exists) throw new NotFoundError(`run '${runId}' not found`);
      return;
    }
    this.events.notify([runId]);
    // Episodes in flight here stop now and give their threads back; none of them is recorded.
    await this.local?.cancelRun(runId);
    // Stopped episodes did not end: they are not 'running' any more (a late result of another
    // process's worker then fails the recorder's compare-and-set and is dropped).
    await this.db.episode.updateMany({
      where: { runId, status: 'running' },
      data: { status: 'queued' },
    });
  }

  getRunSummary(runId: string): Promise<reads.RunSummary> {
    return reads.getRunSummary(this.db, runId);
  }

  /** A run's size and queue: what a follower shows before the first episode ends (one row read). */
  async runPlan(runId: string): Promise<{ episodesTotal: number; queue: 'local' | 'bullmq' }> {
    const run = await this.db.run.findUnique({
      where: { id: runId },
      select: { episodesTotal: true, queue: true },
    });
    if (!run) throw new NotFoundError(`run '${runId}' not found`);
    return run;
  }

  listRuns(options?: Parameters<typeof reads.listRuns>[1]) {
    return reads.listRuns(this.db, options);
  }

  getEpisode(episodeId: string): Promise<reads.EpisodeInfo> {
    return reads.getEpisode(this.db, episodeId);
  }

  listEpisodes(runId: string, filter?: reads.EpisodeFilter) {
    return reads.listEpisodes(this.db, runId, filter);
  }

  /** Every episode of a run, read page by page. */
  async allEpisodes(runId: string): Promise<reads.EpisodeInfo[]> {
    const episodes: reads.EpisodeInfo[] = [];
    let cursor: number | undefined;
    do {
      const page = await this.listEpisodes(runId, {
        limit: 1000,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      episodes.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return episodes;
  }

  getSteps(episodeId: string, options?: { cursor?: number; limit?: number }) {
    return reads.getSteps(this.db, episodeId, options);
  }

  exportRun(runId: string) {
    return reads.exportRun(this.db, runId);
  }

  listRunEvents(runId: string, afterId?: string, limit?: number) {
    return this.events.list(runId, afterId, limit);
  }

  /** The rate-limit back-offs the run's episodes wait in now (live, from whichever process runs them). */
  async backoffs(
    runId: string,
  ): Promise<{ endpoint: string; leftMs: number; waitMs: number; retries: number }[]> {
    const now = Date.now();
    return (await this.events.backoffs(runId)).map((b) => ({
      endpoint: b.endpoint,
      leftMs: Math.max(0, b.until - now),
      waitMs: b.waitMs,
      retries: b.retries,
    }));
  }

  /** Stops the queues after their running episodes (tests, shutdown); the events stay open. */
  async close(): Promise<void> {
    for (const stop of [...this.resumers]) stop();
    const local = this.local;
    const bullmq = this.bullmq;
    this.local = undefined;
    this.bullmq = undefined;
    await local?.close();
    await bullmq?.close();
  }
}

export type { EpisodeFilter, EpisodeInfo, RunInfo, RunSummary } from './reads.ts';
