// Scale-out: a run's episodes are BullMQ jobs on Redis; `harness worker` processes on any machine
// consume them against the shared PostgreSQL. BullMQ's lock + stalled-job check hands the job of a
// dead worker to another one; the recorder's attempt counter and compare-and-set make sure the
// episode is still recorded exactly once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import { KindedError } from '../../bridges/core/errors.ts';
import type { Db } from '../db/index.ts';
import { bullmqPackage, ioredisPackage } from '../lazy-packages.ts';
import { type Outage, shortReason } from '../outage.ts';
import { reportBackoffs } from './backoff-report.ts';
import { type EpisodeExecutor, executorErrorResult, type PolicyOptionsResolver } from './engine.ts';
import type { RunEvents } from './events.ts';
import { OwnedQueue, reportWorkerErrors } from './owned-queue.ts';
import { EpisodeRecorder } from './recorder.ts';
import { episodeInput, loadRunSettings, type RunSettings } from './run-settings.ts';

export const DEFAULT_QUEUE_NAME = 'harness-episodes';

interface EpisodeJob {
  episodeId: string;
  runId: string;
}

/** Redis did not take the jobs (down, restarting, unreachable): the database still holds them. */
export class QueueUnavailableError extends KindedError {
  readonly kind = 'infra';
  override name = 'QueueUnavailableError';
}

export interface EpisodeQueueOptions {
  db: Db;
  redisUrl: string;
  name?: string;
  /** Where "queue unavailable, retrying" goes (one line per outage). */
  outage?: Outage;
  /** Called each time the Redis connection is ready (first connect and every reconnect). */
  onReady?: () => void;
  /** How long an enqueue waits for a Redis that is not connected before it gives up. */
  timeoutMs?: number;
}

/** The producer side: a run's unfinished episodes become jobs. */
export class EpisodeQueue {
  private readonly jobs: OwnedQueue<EpisodeJob>;
  private readonly timeoutMs: number;

  constructor(private readonly o: EpisodeQueueOptions) {
    // Fail fast: a launch must not hang on Redis; the resumer puts the jobs on later.
    this.jobs = new OwnedQueue(o.redisUrl, o.name ?? DEFAULT_QUEUE_NAME, {
      failFast: true,
      ...(o.outage ? { outage: o.outage } : {}),
      ...(o.onReady ? { onReady: o.onReady } : {}),
    });
    this.timeoutMs = o.timeoutMs ?? 5000;
  }

  get outage(): Outage {
    return this.jobs.outage;
  }

  /**
   * Adds a job per unfinished episode; the job id is the episode id, so adding twice is harmless.
   * `onlyMissing` first looks the jobs up and adds those Redis lost (a re-enqueue of a running run
   * then costs one lookup per episode instead of a duplicate add and its event). Throws
   * QueueUnavailableError when Redis does not answer.
   */
  async enqueueRun(runId: string, o: { onlyMissing?: boolean } = {}): Promise<number> {
    const episodes = await this.o.db.episode.findMany({
      where: { runId, status: { not: 'done' } },
      orderBy: { ordinal: 'asc' },
      select: { id: true },
    });
    if (episodes.length === 0) return 0;
    const q = this.jobs.queue;
    await this.onRedis(() => q.waitUntilReady());
    let ids = episodes.map((e) => e.id);
    if (o.onlyMissing) ids = await this.missingJobs(ids);
    for (let i = 0; i < ids.length; i += 1000) {
      const jobs = ids.slice(i, i + 1000).map((id) => ({
        name: 'episode',
        data: { episodeId: id, runId },
        // A processor fails only on a database error; retrying is safe (claims and records are
        // compare-and-set), so give transient outages a few tries.
        opts: {
          jobId: id,
          removeOnComplete: true,
          removeOnFail: 1000,
          attempts: 5,
          backoff: { type: 'exponential' as const, delay: 1000 },
        },
      }));
      await this.onRedis(() => q.addBulk(jobs));
    }
    return ids.length;
  }

  /** The episode ids that have no job (in any state) on the queue. */
  private async missingJobs(ids: string[]): Promise<string[]> {
    const q = this.jobs.queue;
    const missing: string[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const pipeline = this.jobs.redis.pipeline();
      for (const id of chunk) pipeline.exists(q.toKey(id));
      const replies = (await this.onRedis(() => pipeline.exec())) ?? [];
      chunk.forEach((id, j) => {
        const [error, exists] = replies[j] ?? [new Error('no reply'), 0];
        if (error) throw error;
        if (exists === 0) missing.push(id);
      });
    }
    return missing;
  }

  /** Runs one Redis step (a chunk at most) within the time limit; any failure of it is the queue's. */
  private async onRedis<T>(step: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from Redis within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    const work = step();
    work.catch(() => undefined); // settles after the timeout: nobody is waiting any more
    try {
      const value = await Promise.race([work, timeout]);
      this.outage.up(); // a step that timed out while the socket stayed up ends its outage here
      return value;
    } catch (error) {
      const reason = shortReason(error);
      this.outage.down(reason);
      throw new QueueUnavailableError(`queue unavailable (${reason})`);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}

export interface EpisodeWorkerOptions {
  db: Db;
  events: RunEvents;
  policyOptions: PolicyOptionsResolver;
  redisUrl: string;
  queueName?: string;
  /** Episodes processed at once by this worker process. */
  concurrency: number;
  executor: EpisodeExecutor;
  /** How long a job's lock lives without renewal: a killed worker's job is taken over after it. */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for. */
  stalledIntervalMs?: number;
  workerId?: string;
  onEpisode?: (e: { episodeId: string; recorded: boolean; skipped: boolean }) => void;
}

export interface EpisodeWorker {
  readonly id: string;
  close(): Promise<void>;
  /** Resolves once the worker is connected and taking jobs. */
  ready(): Promise<void>;
}

export function startEpisodeWorker(options: EpisodeWorkerOptions): EpisodeWorker {
  const id = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 6)}`;
  const recorder = new EpisodeRecorder(id, { db: options.db, events: options.events });
  const settings = new Map<string, Promise<RunSettings>>();
  const lockDuration = options.lockDurationMs ?? 30_000;
  const redis = new (ioredisPackage().Redis)(options.redisUrl, { maxRetriesPerRequest: null });
  const worker = new (bullmqPackage().Worker)<EpisodeJob>(
    options.queueName ?? DEFAULT_QUEUE_NAME,
    async (job: Job<EpisodeJob>) => {
      const { episodeId, runId } = job.data;
      const claimed = await recorder.claim({ id: episodeId, runId });
      if (!claimed) {
        options.onEpisode?.({ episodeId, recorded: false, skipped: true });
        return { skipped: true };
      }
      let run = settings.get(runId);
      if (!run) {
        run = loadRunSettings(options.db, options.policyOptions, runId);
        settings.set(runId, run);
      }
      const input = episodeInput(await run, claimed);
      const started = performance.now();
      const result = await options.executor
        .run(input)
        .catch((error: unknown) => executorErrorResult(input, error, performance.now() - started));
      const recorded = await recorder.record({
        id: claimed.id,
        runId,
        attempt: claimed.attempt,
        result,
      });
      options.onEpisode?.({ episodeId, recorded, skipped: false });
      return { recorded, attempt: claimed.attempt };
    },
    {
      connection: redis,
      concurrency: options.concurrency,
      lockDuration,
      stalledInterval: options.stalledIntervalMs ?? lockDuration,
      // A job may stall several times (several killed workers) before it is given up.
      maxStalledCount: 10,
    },
  );
  reportWorkerErrors(worker, redis, `worker ${id}`);
  const stopReporting = reportBackoffs(options.events, (runId) => settings.has(runId));
  return {
    id,
    ready: () => worker.waitUntilReady().then(() => undefined),
    async close() {
      stopReporting();
      await worker.close();
      await recorder.drain();
      await options.executor.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
