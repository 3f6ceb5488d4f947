// Run event bus. Events are rows of RunEvent (written in the same transaction as the state change
// they describe, under the run's row lock, so ids commit in order per run); notifications only wake
// subscribers up — in-process through an EventEmitter, across processes through Redis pub/sub — and
// subscribers always read by cursor from the table. That is what makes a stream gap- and duplicate-free
// and resumable from any id.
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Json } from '../../bridges/core/types.ts';
import { config } from '../config.ts';
import { InvalidInputError } from '../errors.ts';
import { rolloutDb } from './db.ts';

export const RUN_EVENT_TYPES = [
  'run_started',
  'episode_started',
  'episode_ended',
  'run_progress',
  'run_completed',
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

export interface RunEventRecord {
  /** Resumable cursor (a decimal bigint). */
  id: string;
  runId: string;
  type: RunEventType;
  payload: Json;
  createdAt: string;
}

export interface NewRunEvent {
  runId: string;
  type: RunEventType;
  payload: Json;
}

const CHANNEL = 'harness:run-events';
const local = new EventEmitter();
local.setMaxListeners(0);

let publisher: Redis | undefined;
let subscriber: Redis | undefined;
let subscribing: Promise<void> | undefined;

function redisUrl(): string | undefined {
  return config().REDIS_URL;
}

/** Wakes subscribers of these runs, here and (with Redis) in every other process. */
export function notifyRuns(runIds: Iterable<string>): void {
  const ids = [...new Set(runIds)];
  for (const id of ids) local.emit(id);
  const url = redisUrl();
  if (!url || ids.length === 0) return;
  if (!publisher) {
    publisher = new Redis(url, { maxRetriesPerRequest: 2 });
    publisher.on('error', () => undefined);
  }
  for (const id of ids) publisher.publish(CHANNEL, id).catch(() => undefined);
}

async function ensureRedisSubscriber(): Promise<void> {
  const url = redisUrl();
  if (!url) return;
  if (!subscribing) {
    const sub = new Redis(url, { maxRetriesPerRequest: 2 });
    subscriber = sub;
    sub.on('error', () => undefined); // reconnects by itself; subscribers poll meanwhile
    sub.on('message', (_channel: string, runId: string) => local.emit(runId));
    subscribing = sub.subscribe(CHANNEL).then(() => undefined);
  }
  // Without Redis notifications a subscriber still sees every event, by polling.
  await subscribing.catch(() => undefined);
}

/** Closes the Redis connections of the bus (tests, CLI exit). */
export async function closeEventBus(): Promise<void> {
  const p = publisher;
  const s = subscriber;
  publisher = undefined;
  subscriber = undefined;
  subscribing = undefined;
  await Promise.all([p?.quit().catch(() => undefined), s?.quit().catch(() => undefined)]);
}

type Row = { id: bigint; runId: string; type: string; payload: unknown; createdAt: Date };

function toRecord(row: Row): RunEventRecord {
  return {
    id: row.id.toString(),
    runId: row.runId,
    type: row.type as RunEventType,
    payload: row.payload as Json,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listRunEvents(
  runId: string,
  afterId?: string,
  limit = 500,
): Promise<RunEventRecord[]> {
  if (afterId !== undefined && !/^\d{1,19}$/.test(afterId)) {
    throw new InvalidInputError(`event cursor must be a RunEvent id, got '${afterId}'`);
  }
  const db = await rolloutDb();
  const rows = await db.runEvent.findMany({
    where: { runId, ...(afterId ? { id: { gt: BigInt(afterId) } } : {}) },
    orderBy: { id: 'asc' },
    take: limit,
  });
  return rows.map(toRecord);
}

export interface SubscribeOptions {
  signal?: AbortSignal;
  /** Safety net when a notification is lost (e.g. Redis reconnect). */
  pollMs?: number;
  /** End the stream after the run_completed event. */
  untilCompleted?: boolean;
}

/**
 * Replays stored events after `fromEventId`, then streams new ones as they commit. Each event is
 * yielded once, in id order, whether it was stored before or after the call.
 */
export async function* subscribeRun(
  runId: string,
  fromEventId?: string,
  options: SubscribeOptions = {},
): AsyncGenerator<RunEventRecord> {
  const { signal, pollMs = 1000, untilCompleted = false } = options;
  let cursor = fromEventId;
  let pending = false;
  let wake: (() => void) | undefined;
  const onNotify = () => {
    pending = true;
    wake?.();
  };
  local.on(runId, onNotify);
  try {
    await ensureRedisSubscriber();
    while (!signal?.aborted) {
      pending = false;
      const batch = await listRunEvents(runId, cursor);
      for (const event of batch) {
        cursor = event.id;
        yield event;
        if (untilCompleted && event.type === 'run_completed') return;
      }
      if (batch.length === 500 || pending) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
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
    local.off(runId, onNotify);
  }
}
