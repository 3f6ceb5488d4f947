// A BullMQ producer queue on a Redis connection of its own, opened on first use and closed with the
// queue (BullMQ leaves a passed-in connection open). Episode jobs and rig jobs both use it.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

export class OwnedQueue<T> {
  private opened: { q: Queue<T>; redis: Redis } | undefined;

  constructor(
    private readonly redisUrl: string,
    readonly name: string,
  ) {}

  get queue(): Queue<T> {
    if (!this.opened) {
      const redis = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
      this.opened = { q: new Queue<T>(this.name, { connection: redis }), redis };
    }
    return this.opened.q;
  }

  async close(): Promise<void> {
    const o = this.opened;
    this.opened = undefined;
    if (o) {
      await o.q.close();
      await o.redis.quit().catch(() => undefined);
    }
  }
}
