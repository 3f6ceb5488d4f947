// Writes episode claims and results in batches. Every operation queued while the previous write
// ran is folded into ONE SQL statement (data-modifying CTEs over JSON-encoded rows), so a run of
// hundreds of episodes costs a few dozen round trips instead of one per step — Prisma over PGlite
// costs milliseconds per statement, which made per-statement transactions the bottleneck.
//
// Exactly-once recording: a claim increments the episode's attempt; a result is written only when
// its attempt is still the current one and the episode is still running (compare-and-set), and its
// steps replace any an earlier attempt left. Run counters and events change in the same statement,
// so they too count each episode once. Event ids are drawn only after the run's row is locked (the
// event rows are built from the run UPDATE's output), so within a run ids commit in id order and a
// subscriber reading by cursor never skips a late commit.
import type { Json } from '../../bridges/core/types.ts';
import { capText } from '../../contracts/text.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { connectionFailure, DEFAULT_DB_RETRY_MS } from '../db/retry.ts';
import type { RunEvents } from './events.ts';
import { computeMetrics, type RunMetrics } from './metrics.ts';
import {
  type ClaimedEpisode,
  dropStaleStepsSql,
  recordBatchSql,
  runBatch,
  startRunsSql,
} from './recorder-sql.ts';
import { encodeSteps } from './step-rows.ts';
import type { EpisodeResult } from './types.ts';

export type { ClaimedEpisode } from './recorder-sql.ts';

type Tx = Prisma.TransactionClient;

export interface ClaimRequest {
  id: string;
  runId: string;
}

export interface RecordRequest {
  id: string;
  runId: string;
  attempt: number;
  result: EpisodeResult;
}

type Op =
  | {
      kind: 'claim';
      req: ClaimRequest;
      resolve: (c: ClaimedEpisode | null) => void;
      reject: (e: unknown) => void;
    }
  | {
      kind: 'record';
      req: RecordRequest;
      /** When the result reached the recorder: the episode's end (stored as its finishedAt). */
      endedAt: Date;
      resolve: (won: boolean) => void;
      reject: (e: unknown) => void;
    };

/** The stored message of an episode's error (Episode.errorMessage, the episode_ended event), capped. */
export function errorMessage(result: EpisodeResult): string | null {
  const e = result.error;
  if (!e) return null;
  const where = [
    e.hook,
    e.line !== undefined ? `line ${e.line}` : undefined,
    e.column !== undefined ? `column ${e.column}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return capText(`${e.name}: ${e.message}${where ? ` (${where})` : ''}`);
}

function episodeRow(r: RecordRequest, endedAt: Date) {
  const res = r.result;
  return {
    id: r.id,
    finishedAt: endedAt.toISOString(),
    attempt: r.attempt,
    outcome: res.outcome,
    failureCategory: res.failureCategory ?? null,
    errorKind: res.error?.kind ?? null,
    errorMessage: errorMessage(res),
    steps: res.steps,
    reward: res.reward?.total ?? null,
    costReward: res.reward
      ? { ...res.reward, invalidActions: res.invalidActions, envReward: res.envReward }
      : null,
    evaluation: res.evaluation ?? null,
    legVerdicts: res.legs ?? null,
    durationMs: Math.round(res.durationMs),
    promptTokens: res.usage?.prompt ?? null,
    outputTokens: res.usage?.completion ?? null,
    cachedTokens: res.usage?.cached ?? null,
    llm: (res.llm as unknown as Json) ?? null,
    initialObservation: res.initialObservation ?? null,
  };
}

/** Metrics over a run's stored episodes (inside a transaction or not). */
export async function runMetrics(db: Tx, runId: string): Promise<RunMetrics> {
  const rows = await db.episode.findMany({
    where: { runId, status: 'done' },
    select: { outcome: true, failureCategory: true, errorKind: true, steps: true, reward: true },
  });
  return computeMetrics(rows);
}

const embedded = new WeakMap<object, Promise<boolean>>();

/** PGlite (in-process WebAssembly PostgreSQL) or a PostgreSQL server, asked once per client. */
function isEmbedded(db: Db): Promise<boolean> {
  let known = embedded.get(db);
  if (!known) {
    known = db.$queryRaw<{ version: string }[]>`SELECT version() AS version`.then((rows) =>
      /PGlite/i.test(rows[0]?.version ?? ''),
    );
    embedded.set(db, known);
  }
  return known;
}

export interface RecorderOptions {
  db: Db;
  /** Woken after every write, so that live subscribers read the new events. */
  events: RunEvents;
  /**
   * Wait this long after the first queued claim so that others join its transaction. A result is
   * written at once unless `resultLingerMs` is set: a live run page waits for its row.
   */
  lingerMs?: number;
  /**
   * At most this long between a result's arrival and the start of its write (default 0: at once).
   * Results that end meanwhile share the write — group commit: at hundreds of episodes a second
   * most of an embedded write's cost is per statement, and a few milliseconds are nothing beside a
   * live page's 500 ms.
   */
  resultLingerMs?: number;
  /** Flush at once when this many operations are queued. */
  maxBatch?: number;
}

export class EpisodeRecorder {
  private queue: Op[] = [];
  private flushing: Promise<void> | undefined;
  /** Ends the current linger within `ms` (at once: 0); set while a flush lingers. */
  private endLinger: ((ms: number) => void) | undefined;
  private readonly lingerMs: number;
  private readonly resultLingerMs: number;
  private readonly maxBatch: number;
  /** Write statistics (transactions, operations, milliseconds in transactions), for benches. */
  readonly stats = { flushes: 0, ops: 0, ms: 0 };
  /** Runs this recorder has seen leave `queued`: no need to try starting them again. */
  private readonly started = new Set<string>();
  private readonly db: Db;
  private readonly events: RunEvents;

  constructor(
    private readonly workerId: string,
    options: RecorderOptions,
  ) {
    this.db = options.db;
    this.events = options.events;
    this.lingerMs = options.lingerMs ?? 0;
    this.resultLingerMs = options.resultLingerMs ?? 0;
    this.maxBatch = options.maxBatch ?? 64;
  }

  claim(req: ClaimRequest): Promise<ClaimedEpisode | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'claim', req, resolve, reject });
      this.kick();
    });
  }

  /** Claims several episodes in the same transaction; null for those already done. */
  claimMany(reqs: ClaimRequest[]): Promise<(ClaimedEpisode | null)[]> {
    return Promise.all(reqs.map((r) => this.claim(r)));
  }

  record(req: RecordRequest): Promise<boolean> {
    const endedAt = new Date();
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'record', req, endedAt, resolve, reject });
      this.kick(true);
    });
  }

  /** Resolves when everything queued so far is written. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Starts a flush unless one runs; `urgent` (a result) cuts a lingering flush short. */
  private kick(urgent = false): void {
    if (this.flushing) {
      if (this.queue.length >= this.maxBatch) this.endLinger?.(0);
      else if (urgent) this.endLinger?.(this.resultLingerMs);
      return;
    }
    this.flushing = (async () => {
      try {
        // Operations queued in the same tick (or within the linger) share one transaction; one
        // queued while a write runs goes into the next write.
        const linger =
          this.queue.length >= this.maxBatch ? 0 : urgent ? this.resultLingerMs : this.lingerMs;
        if (linger > 0) await this.linger(linger);
        else await new Promise((r) => setImmediate(r));
        while (this.queue.length > 0) {
          const ops = this.queue;
          this.queue = [];
          const started = performance.now();
          try {
            await this.withRetry(() => this.write(ops));
            this.stats.flushes += 1;
            this.stats.ops += ops.length;
            this.stats.ms += performance.now() - started;
          } catch (error) {
            for (const op of ops) op.reject(error);
          }
        }
      } finally {
        this.flushing = undefined;
      }
    })();
  }

  /** Waits `ms`, or less when endLinger asks for an earlier end. */
  private linger(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let deadline = performance.now() + ms;
      let timer: NodeJS.Timeout | undefined;
      const end = () => {
        clearTimeout(timer);
        this.endLinger = undefined;
        resolve();
      };
      timer = setTimeout(end, ms);
      this.endLinger = (within) => {
        if (within <= 0) return end();
        if (performance.now() + within >= deadline) return;
        deadline = performance.now() + within;
        clearTimeout(timer);
        timer = setTimeout(end, within);
      };
    });
  }

  /**
   * A deadlock between writers in different processes (two runs in one batch, locked in different
   * orders) aborts one statement; a server restart or a dropped connection aborts the batch's
   * transaction (single statements are retried below, in the database layer: db/retry.ts).
   * Retrying is safe because every write is a compare-and-set.
   */
  private async withRetry(fn: () => Promise<void>): Promise<void> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const deadlock = /deadlock|could not serialize|40P01|40001/i.test(message);
        const connection = connectionFailure(error) !== undefined;
        if (deadlock && attempt < 3) {
          await new Promise((r) => setTimeout(r, 20 * attempt));
        } else if (connection && Date.now() - started < DEFAULT_DB_RETRY_MS) {
          await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2000)));
        } else {
          throw error;
        }
      }
    }
  }

  private async write(ops: Op[]): Promise<void> {
    const claims = ops.filter((o): o is Extract<Op, { kind: 'claim' }> => o.kind === 'claim');
    const records = ops.filter((o): o is Extract<Op, { kind: 'record' }> => o.kind === 'record');
    const runIds = [...new Set(ops.map((o) => o.req.runId))].sort();
    const db = this.db;
    const statements: Prisma.Sql[] = [];
    // A run moves queued -> running exactly once: under READ COMMITTED the status test is
    // re-checked on the latest row after a lock wait, so only one writer gets the row back.
    const mayStart = [...new Set(claims.map((c) => c.req.runId))].filter(
      (id) => !this.started.has(id),
    );
    if (mayStart.length > 0) statements.push(startRunsSql(mayStart));
    // Steps are written only with a winning outcome, so only a retried episode (attempt > 1) can
    // hold rows of an earlier attempt (e.g. from an older version): drop those that are stale.
    const retried = records
      .filter((r) => r.req.attempt > 1)
      .map((r) => ({ id: r.req.id, attempt: r.req.attempt }));
    if (retried.length > 0) statements.push(dropStaleStepsSql(retried));
    // On a PostgreSQL server every write holds its runs' row locks until commit (that is what
    // orders event ids). A durable commit waits for the WAL flush — 10 ms and more on a busy disk —
    // and with the lock held every writer of a run would queue behind it. So writes commit
    // asynchronously (set inside the statement, which commits on the server without a client round
    // trip while the lock is held): the WAL writer flushes within wal_writer_delay, and a server
    // crash can lose only that last moment, i.e. leave episodes claimed or running, which
    // resumeUnfinishedRuns() dispatches again — never a duplicate. PGlite has no WAL writer
    // (nothing would flush until a later durable commit) and no concurrent writers: it stays durable.
    statements.push(
      recordBatchSql({
        syncCommit: (await isEmbedded(db)) ? 'on' : 'off',
        workerId: this.workerId,
        runIds,
        claimIds: claims.map((c) => c.req.id),
        rows: records.map((r) => episodeRow(r.req, r.endedAt)),
        steps: records.map(({ req }) => ({
          id: req.id,
          attempt: req.attempt,
          encoded: req.result.encodedSteps ?? encodeSteps(req.result.trajectory),
        })),
      }),
    );

    const main = await runBatch(db, statements);
    const claimed = new Map((main?.claimed ?? []).map((c) => [c.id, c]));
    const won = new Set(main?.won ?? []);
    for (const id of mayStart) this.started.add(id);
    // Runs the batch did not end: their waiters here need not look at them (events.ts wakes()).
    this.events.notify(runIds, main ? { ended: new Set(main.ended) } : {});
    for (const op of claims) op.resolve(claimed.get(op.req.id) ?? null);
    for (const op of records) op.resolve(won.has(`${op.req.id}#${op.req.attempt}`));
  }
}
