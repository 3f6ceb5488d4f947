// A BullMQ producer queue on a Redis connection of its own, opened on first use and closed with the
// queue (BullMQ leaves a passed-in connection open). Episode jobs and rig jobs both use it.
// Connection errors become one status line per outage (server/outage.ts) instead of the stack that
// BullMQ prints for every reconnect attempt when nobody listens.
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmqPackage, ioredisPackage } from '../lazy-packages.ts';
import { Outage, shortReason } from '../outage.ts';

export interface OwnedQueueOptions {
  /**
   * Commands fail at once while Redis is unreachable instead of waiting for it (BullMQ's "failing
   * fast when Redis is down"): for a producer whose jobs the database can put back later.
   */
  failFast?: boolean;
  /** Where the outage is reported (a status line on stderr by default). */
  outage?: Outage;
  /** Called each time the connection is ready (first connect and every reconnect). */
  onReady?: () => void;
}

export class OwnedQueue<T> {
  private opened: { q: Queue<T>; redis: Redis } | undefined;
  private closing = false;
  readonly outage: Outage;

  constructor(
    private readonly redisUrl: string,
    readonly name: string,
    private readonly o: OwnedQueueOptions = {},
  ) {
    this.outage = o.outage ?? new Outage('queue');
  }

  get queue(): Queue<T> {
    return this.open().q;
  }

  /** The queue's own connection (e.g. to look jobs up in a pipeline). */
  get redis(): Redis {
    return this.open().redis;
  }

  private open(): { q: Queue<T>; redis: Redis } {
    if (!this.opened) {
      this.closing = false;
      const redis = new (ioredisPackage().Redis)(
        this.redisUrl,
        this.o.failFast
          ? { maxRetriesPerRequest: 1, enableOfflineQueue: false }
          : { maxRetriesPerRequest: null },
      );
      const down = (error: unknown) => {
        if (!this.closing) this.outage.down(shortReason(error));
      };
      redis.on('error', down);
      // A Redis restarted between two reconnect attempts shows no error, only a closed socket.
      redis.on('close', () => down('connection closed'));
      redis.on('ready', () => {
        this.outage.up();
        this.o.onReady?.();
      });
      const q = new (bullmqPackage().Queue)<T>(this.name, { connection: redis });
      q.on('error', down);
      this.opened = { q, redis };
    }
    return this.opened;
  }

  async close(): Promise<void> {
    const o = this.opened;
    this.opened = undefined;
    this.closing = true;
    if (!o) return;
    // With Redis gone, a graceful close would wait for it: give it a moment, then drop the socket.
    const graceful = async () => {
      await o.q.close();
      await o.redis.quit();
    };
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 2000).unref());
    await Promise.race([graceful().catch(() => undefined), timer]);
    o.redis.disconnect();
  }
}

const REDIS_CONNECTION =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|Stream isn't writeable|max retries per request/i;

function isRedisConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return REDIS_CONNECTION.test(`${code ?? ''} ${error.message}`);
}

/**
 * A BullMQ worker's errors on stderr: connection errors as one line per outage (BullMQ reports one
 * per reconnect attempt), anything else one line each.
 */
export function reportWorkerErrors(worker: Worker, redis: Redis, label: string): void {
  const outage = new Outage(`${label}: queue`);
  redis.on('error', (err: Error) => outage.down(shortReason(err)));
  redis.on('ready', () => outage.up());
  worker.on('error', (err) => {
    if (isRedisConnectionError(err)) outage.down(shortReason(err));
    else console.error(`${label}: ${shortReason(err)}`);
  });
}
