// Scale-out for rigs: a rig is a BullMQ job (its id is the rig's id, so adding it twice is harmless)
// consumed by `harness worker` processes beside the episode jobs. A rig's runs are episode jobs as
// usual; the rig job only drives the loop. BullMQ's lock + stalled-job check hands the job of a
// dead worker to another one, whose executeRig() resumes the rig from its rows.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import { bullmqPackage, ioredisPackage } from '../lazy-packages.ts';
import { OwnedQueue, reportWorkerErrors } from '../rollouts/owned-queue.ts';
import { RigStoppedError } from './observe.ts';

export const DEFAULT_RIG_QUEUE_NAME = 'harness-rigs';

/** The rig queue beside an episode queue of that name (tests isolate themselves by name). */
export function rigQueueName(episodeQueueName?: string): string {
  return episodeQueueName ? `${episodeQueueName}-rigs` : DEFAULT_RIG_QUEUE_NAME;
}

interface RigJob {
  rigId: string;
}

/** The producer side. */
export class RigJobQueue {
  private readonly jobs: OwnedQueue<RigJob>;

  constructor(o: { redisUrl: string; name: string }) {
    this.jobs = new OwnedQueue(o.redisUrl, o.name);
  }

  async add(rigId: string): Promise<void> {
    await this.jobs.queue.add(
      'rig',
      { rigId },
      {
        jobId: rigId,
        removeOnComplete: true,
        removeOnFail: 1000,
        // A processor fails only when the rig row could not be updated (the database): retrying
        // resumes the rig from its rows.
        attempts: 5,
        backoff: { type: 'exponential', delay: 2000 },
      },
    );
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}

export interface RigWorkerOptions {
  redisUrl: string;
  name: string;
  /** Rigs driven at once by this process (their episodes run wherever episode workers are). */
  concurrency: number;
  /** Runs or resumes the rig; stops between steps when the signal fires. */
  execute(rigId: string, signal: AbortSignal): Promise<unknown>;
  /** The rig's status now (null when it is gone). */
  status(rigId: string): Promise<string | null>;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  workerId?: string;
}

export interface RigWorker {
  readonly id: string;
  ready(): Promise<void>;
  /** Stops the rigs in hand between steps and puts their jobs back for another worker. */
  close(): Promise<void>;
}

export function startRigWorker(o: RigWorkerOptions): RigWorker {
  const id = o.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 6)}`;
  const stop = new AbortController();
  const lockDuration = o.lockDurationMs ?? 30_000;
  const { Worker, WaitingError } = bullmqPackage();
  const redis = new (ioredisPackage().Redis)(o.redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker<RigJob>(
    o.name,
    async (job: Job<RigJob>, token?: string) => {
      const { rigId } = job.data;
      try {
        await o.execute(rigId, stop.signal);
      } catch (e) {
        if (stop.signal.aborted || e instanceof RigStoppedError) {
          // Back to the queue without spending an attempt: the next worker resumes the rig.
          await job.moveToWait(token);
          throw new WaitingError();
        }
        // A rig's own failure is on its row (status failed); anything else is retried.
        const status = await o.status(rigId);
        if (status === 'failed' || status === null) return { failed: true };
        throw e;
      }
      return { completed: true };
    },
    {
      connection: redis,
      concurrency: o.concurrency,
      lockDuration,
      stalledInterval: o.stalledIntervalMs ?? lockDuration,
      maxStalledCount: 10,
    },
  );
  reportWorkerErrors(worker, redis, `rig worker ${id}`);
  return {
    id,
    ready: () => worker.waitUntilReady().then(() => undefined),
    async close() {
      stop.abort();
      await worker.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
