// Run event bus. Events are rows of RunEvent (written in the same transaction as the state change
// they describe, under the run's row lock, so ids commit in order per run); notifications only wake
// subscribers up — in-process through an EventEmitter, across processes through Redis pub/sub — and
// subscribers always read by cursor from the table. That is what makes a stream gap- and duplicate-free
// and resumable from any id.
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { RunEventBodySchema, type RunEventRecord } from '../../contracts/runs.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import { InvalidInputError } from '../errors.ts';
import { ioredisPackage } from '../lazy-packages.ts';

export {
  RUN_EVENT_TYPES,
  type RunEventRecord,
  type RunEventType,
} from '../../contracts/runs.ts';

const CHANNEL = 'harness:run-events';
/** Live back-off states (RunBackoff JSON): not stored, only the latest is kept, per process. */
const BACKOFF_CHANNEL = 'harness:run-backoff';
/** A back-off whose gate nobody reported open again (its worker died) is forgotten this long after. */
const BACKOFF_STALE_MS = 30_000;

/** A run's episodes wait on a rate-limited model endpoint (server/policies/llm-gate.ts). */
export interface RunBackoff {
  runId: string;
  endpoint: string;
  /** Closed until (epoch ms); 0 while a probe request is under way. */
  until: number;
  waitMs: number;
  /** 429 answers since the endpoint last answered; 0: the back-off is over. */
  retries: number;
  /** When it was reported (epoch ms). */
  at: number;
}

type Row = { id: bigint; runId: string; type: string; payload: unknown; createdAt: Date };

function toRecord(row: Row): RunEventRecord {
  const body = parseColumn(
    RunEventBodySchema,
    { type: row.type, payload: row.payload },
    `RunEvent ${row.id}`,
  );
  return {
    ...body,
    id: row.id.toString(),
    runId: row.runId,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface SubscribeOptions {
  signal?: AbortSignal;
  /** Safety net when a notification is lost (e.g. Redis reconnect). */
  pollMs?: number;
  /** End the stream after the run_completed event. */
  untilCompleted?: boolean;
}

/** The run event log of one database, with wake-ups in this process and (with Redis) across processes. */
export class RunEvents {
  private readonly local = new EventEmitter();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private subscribing: Promise<void> | undefined;
  private readonly backoffsByRun = new Map<string, Map<string, RunBackoff>>();
  /** Wake-ups so far (all runs): a read started after the n-th sees every commit it announced. */
  private wakeCount = 0;
  /** Reads in flight, shared by the subscribers of a run at the same cursor and wake-up. */
  private readonly reading = new Map<string, Promise<RunEventRecord[]>>();

  constructor(
    private readonly db: Db,
    private readonly redisUrl?: string,
  ) {
    this.local.setMaxListeners(0);
  }

  /**
   * Wakes subscribers of these runs, here and (with Redis) in every other process. `ended`: the runs
   * the write left in a final status, when the writer knows (a recorder's batch); the others' wake-up
   * is then progress-only, and a waiter for a run's end here need not look at it (see wakes()).
   */
  notify(runIds: Iterable<string>, o: { ended?: ReadonlySet<string> } = {}): void {
    const ids = [...new Set(runIds)];
    for (const id of ids) this.wake(id, o.ended !== undefined && !o.ended.has(id));
    if (!this.redisUrl || ids.length === 0) return;
    const publisher = this.ensurePublisher();
    for (const id of ids) publisher.publish(CHANNEL, id).catch(() => undefined);
  }

  private async ensureRedisSubscriber(): Promise<void> {
    if (!this.redisUrl) return;
    if (!this.subscribing) {
      const sub = new (ioredisPackage().Redis)(this.redisUrl, { maxRetriesPerRequest: 2 });
      this.subscriber = sub;
      sub.on('error', () => undefined); // reconnects by itself; subscribers poll meanwhile
      sub.on('message', (channel: string, message: string) => {
        if (channel === CHANNEL) this.wake(message);
        else this.keepBackoff(message);
      });
      this.subscribing = sub.subscribe(CHANNEL, BACKOFF_CHANNEL).then(() => undefined);
    }
    // Without Redis notifications a subscriber still sees every event, by polling.
    await this.subscribing.catch(() => undefined);
  }

  /**
   * A run's back-off on a model endpoint, as the process running its episodes sees it: kept here
   * and (with Redis) sent to every other process, so the studio's run page shows a worker's. Live
   * state only — not an event of the log.
   */
  publishBackoff(backoff: RunBackoff): void {
    this.keepBackoff(backoff);
    if (!this.redisUrl) return;
    this.ensurePublisher()
      .publish(BACKOFF_CHANNEL, JSON.stringify(backoff))
      .catch(() => undefined);
  }

  /** The back-offs a run's episodes are in now, one per endpoint. */
  async backoffs(runId: string): Promise<RunBackoff[]> {
    await this.ensureRedisSubscriber();
    const now = Date.now();
    const byEndpoint = this.backoffsByRun.get(runId);
    if (!byEndpoint) return [];
    for (const [endpoint, b] of byEndpoint) {
      if (Math.max(b.until, b.at) + BACKOFF_STALE_MS < now) byEndpoint.delete(endpoint);
    }
    if (byEndpoint.size === 0) this.backoffsByRun.delete(runId);
    return [...byEndpoint.values()];
  }

  private keepBackoff(raw: RunBackoff | string): void {
    let b: RunBackoff;
    try {
      b = typeof raw === 'string' ? (JSON.parse(raw) as RunBackoff) : raw;
    } catch {
      return;
    }
    if (typeof b?.runId !== 'string' || typeof b.endpoint !== 'string') return;
    const byEndpoint = this.backoffsByRun.get(b.runId) ?? new Map<string, RunBackoff>();
    const known = byEndpoint.get(b.endpoint);
    if (known && known.at > b.at) return; // an older report arriving late
    if (b.retries > 0) byEndpoint.set(b.endpoint, b);
    else byEndpoint.delete(b.endpoint);
    if (byEndpoint.size > 0) this.backoffsByRun.set(b.runId, byEndpoint);
    else this.backoffsByRun.delete(b.runId);
  }

  private ensurePublisher(): Redis {
    if (!this.publisher) {
      this.publisher = new (ioredisPackage().Redis)(this.redisUrl as string, {
        maxRetriesPerRequest: 2,
      });
      this.publisher.on('error', () => undefined);
    }
    return this.publisher;
  }

  private wake(runId: string, progressOnly = false): void {
    this.wakeCount += 1;
    this.local.emit(runId, progressOnly);
  }

  /**
   * `list` for a subscriber: many viewers of one run wake together at the same cursor, and one
   * read serves them all. Only a read started after the latest wake-up is shared, so a subscriber
   * never gets a read that began before the commit it was woken for.
   */
  private listShared(runId: string, afterId: string | undefined): Promise<RunEventRecord[]> {
    const key = `${runId}\n${afterId ?? ''}\n${this.wakeCount}`;
    let read = this.reading.get(key);
    if (!read) {
      read = this.list(runId, afterId).finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  /** Closes the Redis connections (shutdown, CLI exit). */
  async close(): Promise<void> {
    const p = this.publisher;
    const s = this.subscriber;
    this.publisher = undefined;
    this.subscriber = undefined;
    this.subscribing = undefined;
    await Promise.all([p?.quit().catch(() => undefined), s?.quit().catch(() => undefined)]);
  }

  async list(runId: string, afterId?: string, limit = 500): Promise<RunEventRecord[]> {
    if (afterId !== undefined && !/^\d{1,19}$/.test(afterId)) {
      throw new InvalidInputError(`event cursor must be a RunEvent id, got '${afterId}'`);
    }
    const rows = await this.db.runEvent.findMany({
      where: { runId, ...(afterId ? { id: { gt: BigInt(afterId) } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toRecord);
  }

  /** Every stored event of a run, in id order (page by page). */
  async listAll(runId: string): Promise<RunEventRecord[]> {
    const out: RunEventRecord[] = [];
    for (let page = await this.list(runId); page.length > 0; ) {
      out.push(...page);
      page = await this.list(runId, page.at(-1)?.id);
    }
    return out;
  }

  /** The newest event id of a run (a fresh subscriber's starting point), if any. */
  async lastId(runId: string): Promise<string | undefined> {
    const last = await this.db.runEvent.findFirst({
      where: { runId },
      orderBy: { id: 'desc' },
      select: { id: true },
    });
    return last?.id.toString();
  }

  /**
   * Yields at each notification of the run (or every `pollMs`, the safety net), until the signal
   * aborts: for a waiter that looks at the run again when woken and needs none of its events.
   * Yields whether the run may have ended since the last yield: false only when every notification
   * meanwhile was a progress-only one from this process (a recorder's batch that ended no run); a
   * poll, a notification from another process or any other write say true.
   */
  async *wakes(
    runId: string,
    options: Omit<SubscribeOptions, 'untilCompleted'> = {},
    /** Go round again at once, without waiting for a notification (e.g. a full page was read). */
    again: () => boolean = () => false,
  ): AsyncGenerator<boolean> {
    const { signal, pollMs = 1000 } = options;
    let pending = false;
    let mayHaveEnded = true;
    let wake: (() => void) | undefined;
    const onNotify = (progressOnly?: boolean) => {
      pending = true;
      if (!progressOnly) mayHaveEnded = true;
      wake?.();
    };
    this.local.on(runId, onNotify);
    try {
      await this.ensureRedisSubscriber();
      while (!signal?.aborted) {
        pending = false;
        const look = mayHaveEnded;
        mayHaveEnded = false;
        yield look;
        if (pending || again()) continue;
        // Aborted while the consumer was busy: an abort listener added now would never fire.
        if (signal?.aborted) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            // The safety net's poll, not a notification: look again.
            mayHaveEnded = true;
            done();
          }, pollMs);
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          }
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      this.local.off(runId, onNotify);
    }
  }

  /**
   * Replays stored events after `fromEventId`, then streams new ones as they commit. Each event is
   * yielded once, in id order, whether it was stored before or after the call.
   */
  async *subscribe(
    runId: string,
    fromEventId?: string,
    options: SubscribeOptions = {},
  ): AsyncGenerator<RunEventRecord> {
    const { untilCompleted = false, ...wakeOptions } = options;
    let cursor = fromEventId;
    let full = false;
    for await (const _ of this.wakes(runId, wakeOptions, () => full)) {
      const batch = await this.listShared(runId, cursor);
      full = batch.length === 500;
      for (const event of batch) {
        cursor = event.id;
        yield event;
        if (untilCompleted && event.type === 'run_completed') return;
      }
    }
  }
}
