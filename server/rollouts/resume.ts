// Scale-out recovery while the process runs: Redis can lose jobs (restarted empty, flushed, failed
// over) or miss them (a launch while it was down). The database knows every unfinished episode, so
// a resumer puts back the jobs Redis does not hold — periodically and each time the connection is
// ready again. Adding a job twice is harmless (job id = episode id), and a job run twice is
// recorded once (the recorder's attempt compare-and-set).
import type { Db } from '../db/index.ts';
import { shortReason } from '../outage.ts';
import { QueueUnavailableError } from './bullmq.ts';

export interface Resumer {
  stop(): void;
}

export interface ResumerDeps {
  db: Db;
  /** Adds the missing jobs of a run's unfinished episodes (throws QueueUnavailableError). */
  enqueueMissing(runId: string): Promise<number>;
  /** Subscribes to "the Redis connection is ready"; returns the unsubscribe. */
  onReady(listener: () => void): () => void;
  intervalMs: number;
  /** Only this run (the CLI following its own run); every unfinished BullMQ run by default. */
  runId?: string;
}

export function startResumer(d: ResumerDeps): Resumer {
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    requeue(d)
      .catch((e: unknown) => console.error(`resume: ${shortReason(e)}`))
      .finally(() => {
        busy = false;
      });
  };
  const timer = d.intervalMs > 0 ? setInterval(tick, d.intervalMs) : undefined;
  timer?.unref();
  const off = d.onReady(tick);
  return {
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      off();
    },
  };
}

async function requeue(d: ResumerDeps): Promise<void> {
  const runs = await d.db.run.findMany({
    where: {
      status: { in: ['queued', 'running'] },
      queue: 'bullmq',
      ...(d.runId ? { id: d.runId } : {}),
    },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  for (const run of runs) {
    try {
      await d.enqueueMissing(run.id);
    } catch (e) {
      // Reported once by the queue's outage line; tried again on reconnect or at the next tick.
      if (e instanceof QueueUnavailableError) return;
      throw e;
    }
  }
}
