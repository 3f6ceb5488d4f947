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
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import type { StepRecord } from '../harness/types.ts';
import type { RunEvents } from './events.ts';
import { computeMetrics, type RunMetrics } from './metrics.ts';
import type { EpisodeResult } from './types.ts';

type Tx = Prisma.TransactionClient;

export interface ClaimRequest {
  id: string;
  runId: string;
}

export interface ClaimedEpisode {
  id: string;
  runId: string;
  attempt: number;
  taskId: string;
  seed: number;
  ordinal: number;
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
      resolve: (won: boolean) => void;
      reject: (e: unknown) => void;
    };

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
  return `${e.name}: ${e.message}${where ? ` (${where})` : ''}`;
}

export function stepRow(episodeId: string, attempt: number, s: StepRecord) {
  return {
    episodeId,
    index: s.index,
    attempt,
    action: s.action as unknown as Json,
    executedAction: (s.executedAction as unknown as Json) ?? null,
    rawObservation: s.rawObservation?.text ?? null,
    rawObservationData: s.rawObservation?.data ?? null,
    observation: s.observation.text,
    observationData: s.observation.data ?? null,
    reward: s.reward,
    terminated: s.terminated,
    truncated: s.truncated,
    invalid: s.invalid,
    blocked: s.blocked ?? null,
    changes: s.changes as unknown as Json,
    info: s.info,
    leg: s.leg ?? null,
    state: s.state ?? null,
    meta: s.meta ?? null,
  };
}

function episodeRow(r: RecordRequest) {
  const res = r.result;
  return {
    id: r.id,
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
  };
}

const json = (v: unknown) => JSON.stringify(v);

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
  /** Wait this long after the first queued operation so that others join its transaction. */
  lingerMs?: number;
  /** Flush at once when this many operations are queued. */
  maxBatch?: number;
}

export class EpisodeRecorder {
  private queue: Op[] = [];
  private flushing: Promise<void> | undefined;
  private readonly lingerMs: number;
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
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'record', req, resolve, reject });
      this.kick();
    });
  }

  /** Resolves when everything queued so far is written. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      try {
        // Operations queued in the same tick (or within the linger) share one transaction.
        if (this.lingerMs > 0 && this.queue.length < this.maxBatch) {
          await new Promise((r) => setTimeout(r, this.lingerMs));
        } else {
          await new Promise((r) => setImmediate(r));
        }
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

  /**
   * A deadlock between writers in different processes (two runs in one batch, locked in different
   * orders) aborts one statement; retrying is safe because every write is a compare-and-set.
   */
  private async withRetry(fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt >= 3 || !/deadlock|could not serialize|40P01|40001/i.test(message)) throw error;
        await new Promise((r) => setTimeout(r, 20 * attempt));
      }
    }
  }

  private async write(ops: Op[]): Promise<void> {
    const claims = ops.filter((o): o is Extract<Op, { kind: 'claim' }> => o.kind === 'claim');
    const records = ops.filter((o): o is Extract<Op, { kind: 'record' }> => o.kind === 'record');
    const runIds = [...new Set(ops.map((o) => o.req.runId))].sort();
    const db = this.db;
    const statements: Prisma.PrismaPromise<unknown>[] = [];
    // On a PostgreSQL server every write holds its runs' row locks until commit (that is what
    // orders event ids). A durable commit waits for the WAL flush — 10 ms and more on a busy disk —
    // and with the lock held every writer of a run would queue behind it. So writes commit
    // asynchronously (set inside the statement, which commits on the server without a client round
    // trip while the lock is held): the WAL writer flushes within wal_writer_delay, and a server
    // crash can lose only that last moment, i.e. leave episodes claimed or running, which
    // resumeUnfinishedRuns() dispatches again — never a duplicate. PGlite has no WAL writer
    // (nothing would flush until a later durable commit) and no concurrent writers: it stays durable.
    const syncCommit = (await isEmbedded(db)) ? 'on' : 'off';
    // A run moves queued -> running exactly once: under READ COMMITTED the status test is
    // re-checked on the latest row after a lock wait, so only one writer gets the row back.
    const mayStart = [...new Set(claims.map((c) => c.req.runId))].filter(
      (id) => !this.started.has(id),
    );
    if (mayStart.length > 0) {
      statements.push(db.$executeRaw`
        WITH s AS (
          UPDATE "Run" SET status = 'running', "startedAt" = now()
          WHERE id = ANY(${mayStart}::text[]) AND status = 'queued' RETURNING id)
        INSERT INTO "RunEvent" ("runId", "type", "payload")
        SELECT id, 'run_started'::"RunEventType", '{}'::jsonb FROM s ORDER BY id`);
    }
    // Steps are written only with a winning outcome, so only a retried episode (attempt > 1) can
    // hold rows of an earlier attempt (e.g. from an older version): drop those that are stale.
    const retried = records
      .filter((r) => r.req.attempt > 1)
      .map((r) => ({ id: r.req.id, attempt: r.req.attempt }));
    if (retried.length > 0) {
      statements.push(db.$executeRaw`
        DELETE FROM "Step" AS s USING "Episode" AS e, json_to_recordset(${json(retried)}::json) AS v(id text, attempt int)
        WHERE s."episodeId" = v.id AND e.id = v.id AND e.attempt = v.attempt AND e.status = 'running'`);
    }
    const claimIds = claims.map((c) => c.req.id);
    const rows = records.map((r) => episodeRow(r.req));
    const steps = records.flatMap((r) =>
      r.req.result.trajectory.map((st) => stepRow(r.req.id, r.req.attempt, st)),
    );
    statements.push(db.$queryRaw<{ claimed: ClaimedEpisode[]; won: string[] }[]>`
      WITH
      cfg AS (SELECT set_config('synchronous_commit', ${syncCommit}, true) AS v),
      claimed AS (
        UPDATE "Episode" AS e SET status = 'running', attempt = e.attempt + 1, "workerId" = ${this.workerId}, "startedAt" = now()
        WHERE e.id = ANY(${claimIds}::text[]) AND e.status <> 'done'
          AND e."runId" IN (SELECT id FROM "Run" WHERE id = ANY(${runIds}::text[]) AND status IN ('queued', 'running'))
        RETURNING e.id, e."runId", e.attempt, e."taskId", e.seed, e.ordinal),
      v AS (
        SELECT * FROM json_to_recordset(${json(rows)}::json) AS v(id text, attempt int, outcome text,
          "failureCategory" text, "errorKind" text, "errorMessage" text, steps int, reward float8,
          "costReward" jsonb, evaluation jsonb, "legVerdicts" jsonb, "durationMs" int)),
      won AS (
        UPDATE "Episode" AS e SET status = 'done', outcome = v.outcome::"EpisodeOutcome",
          "failureCategory" = v."failureCategory"::"FailureCategory", "errorKind" = v."errorKind"::"ErrorKind",
          "errorMessage" = v."errorMessage", steps = v.steps, reward = v.reward,
          "costReward" = v."costReward", evaluation = v.evaluation, "legVerdicts" = v."legVerdicts",
          "durationMs" = v."durationMs", "finishedAt" = now()
        FROM v
        WHERE e.id = v.id AND e.attempt = v.attempt AND e.status = 'running'
        RETURNING e.id, e."runId", e.ordinal, e."taskId", e.seed, v.outcome, v."failureCategory",
          v."errorKind", v."errorMessage", v.steps, v.reward, v."durationMs"),
      ins AS (
        INSERT INTO "Step" ("episodeId", "index", "attempt", "action", "executedAction", "rawObservation",
          "rawObservationData", "observation", "observationData", "reward", "terminated", "truncated",
          "invalid", "blocked", "changes", "info", "leg", "state", "meta")
        SELECT s."episodeId", s."index", s."attempt", s."action", s."executedAction", s."rawObservation",
          s."rawObservationData", s."observation", s."observationData", s."reward", s."terminated",
          s."truncated", s."invalid", s."blocked", s."changes", s."info", s."leg", s."state", s."meta"
        FROM json_to_recordset(${json(steps)}::json) AS s("episodeId" text, "index" int, "attempt" int,
          "action" jsonb, "executedAction" jsonb, "rawObservation" text, "rawObservationData" jsonb,
          "observation" text, "observationData" jsonb, "reward" float8, "terminated" boolean,
          "truncated" boolean, "invalid" boolean, "blocked" text, "changes" jsonb, "info" jsonb,
          "leg" int, "state" jsonb, "meta" jsonb)
        WHERE s."episodeId" IN (SELECT id FROM won)
        RETURNING 1),
      counts AS (
        -- The filter on ins makes the step insert finish before the run rows are locked, so the
        -- lock is held only for the run update, the event insert and the commit.
        SELECT id, sum(n)::int AS n FROM (
          SELECT "runId" AS id, 0 AS n FROM claimed UNION ALL SELECT "runId", 1 FROM won) AS x
        WHERE (SELECT count(*) FROM ins) >= 0
        GROUP BY id),
      runs AS (
        UPDATE "Run" AS r SET "episodesDone" = r."episodesDone" + c.n,
          status = CASE WHEN r.status IN ('queued', 'running') AND c.n > 0 AND r."episodesDone" + c.n >= r."episodesTotal"
            THEN 'completed'::"RunStatus" ELSE r.status END,
          "finishedAt" = CASE WHEN c.n > 0 AND r."episodesDone" + c.n >= r."episodesTotal" THEN now() ELSE r."finishedAt" END
        FROM counts AS c WHERE r.id = c.id
        RETURNING r.id, r."episodesDone" AS done, r."episodesTotal" AS total, r.status::text AS status, c.n),
      ev AS (
        INSERT INTO "RunEvent" ("runId", "type", "payload")
        SELECT x."runId", x.type::"RunEventType", x.payload FROM (
          SELECT c."runId", 'episode_started' AS type, jsonb_build_object('episodeId', c.id, 'ordinal', c.ordinal,
              'taskId', c."taskId", 'seed', c.seed, 'attempt', c.attempt, 'workerId', ${this.workerId}::text) AS payload,
            1 AS grp, c.ordinal AS ord
          FROM claimed AS c JOIN runs ON runs.id = c."runId"
          UNION ALL
          SELECT w."runId", 'episode_ended', jsonb_build_object('episodeId', w.id, 'ordinal', w.ordinal,
              'taskId', w."taskId", 'seed', w.seed, 'outcome', w.outcome, 'failureCategory', w."failureCategory",
              'errorKind', w."errorKind", 'error', w."errorMessage", 'steps', w.steps, 'reward', w.reward,
              'durationMs', w."durationMs"),
            2, w.ordinal
          FROM won AS w JOIN runs ON runs.id = w."runId"
          UNION ALL
          SELECT runs.id, 'run_progress', jsonb_build_object('done', runs.done, 'total', runs.total), 3, 0
          FROM runs WHERE runs.n > 0
          UNION ALL
          SELECT runs.id, 'run_completed', jsonb_build_object('status', runs.status, 'done', runs.done, 'total', runs.total), 4, 0
          FROM runs WHERE runs.n > 0 AND runs.done >= runs.total) AS x
        ORDER BY x."runId", x.grp, x.ord
        RETURNING 1)
      SELECT
        (SELECT v FROM cfg) AS cfg,
        (SELECT coalesce(jsonb_agg(to_jsonb(c) ORDER BY c.ordinal), '[]'::jsonb) FROM claimed AS c) AS claimed,
        (SELECT coalesce(jsonb_agg(w.id), '[]'::jsonb) FROM won AS w) AS won,
        (SELECT count(*) FROM ins)::int AS steps,
        (SELECT count(*) FROM ev)::int AS events`);

    const results =
      statements.length === 1 ? [await statements[0]] : await db.$transaction(statements);
    const main = (results[results.length - 1] as { claimed: ClaimedEpisode[]; won: string[] }[])[0];
    const claimed = new Map((main?.claimed ?? []).map((c) => [c.id, c]));
    const won = new Set(main?.won ?? []);
    for (const id of mayStart) this.started.add(id);
    this.events.notify(runIds);
    for (const op of claims) op.resolve(claimed.get(op.req.id) ?? null);
    for (const op of records) op.resolve(won.has(op.req.id));
  }
}
