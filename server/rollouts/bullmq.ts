// Scale-out: a run's episodes are BullMQ jobs on Redis; `harness worker` processes on any machine
// consume them against the shared PostgreSQL. BullMQ's lock + stalled-job check hands the job of a
// dead worker to another one; the recorder's attempt counter and compare-and-set make sure the
// episode is still recorded exactly once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Db } from '../db/index.ts';
import { type EpisodeExecutor, executorErrorResult, type PolicyOptionsResolver } from './engine.ts';
import type { RunEvents } from './events.ts';
import { OwnedQueue } from './owned-queue.ts';
import { EpisodeRecorder } from './recorder.ts';
import { episodeInput, loadRunSettings, type RunSettings } from './run-settings.ts';

export const DEFAULT_QUEUE_NAME = 'harness-episodes';

interface EpisodeJob {
  episodeId: string;
  runId: string;
}

/** The producer side: a run's unfinished episodes become jobs. */
export class EpisodeQueue {
  private readonly jobs: OwnedQueue<EpisodeJob>;

  constructor(private readonly o: { db: Db; redisUrl: string; name?: string }) {
    this.jobs = new OwnedQueue(o.redisUrl, o.name ?? DEFAULT_QUEUE_NAME);
  }

  /** Adds a job per unfinished episode; the job id is the episode id, so adding twice is harmless. */
  async enqueueRun(runId: string): Promise<number> {
    const episodes = await this.o.db.episode.findMany({
      where: { runId, status: { not: 'done' } },
      orderBy: { ordinal: 'asc' },
      select: { id: true },
    });
    const q = this.jobs.queue;
    for (let i = 0; i < episodes.length; i += 1000) {
      await q.addBulk(
        episodes.slice(i, i + 1000).map((e) => ({
          name: 'episode',
          data: { episodeId: e.id, runId },
          // A processor fails only on a database error; retrying is safe (claims and records are
          // compare-and-set), so give transient outages a few tries.
          opts: {
            jobId: e.id,
            removeOnComplete: true,
            removeOnFail: 1000,
            attempts: 5,
            backoff: { type: 'exponential', delay: 1000 },
          },
        })),
      );
    }
    return episodes.length;
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
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker<EpisodeJob>(
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
  worker.on('error', (err) => console.error(`worker ${id}: ${err.message}`));
  return {
    id,
    ready: () => worker.waitUntilReady().then(() => undefined),
    async close() {
      await worker.close();
      await recorder.drain();
      await options.executor.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
