// Writes episode claims and results in batches: every pending operation is folded into one
// transaction (one statement per kind, JSON-encoded rows unpacked by jsonb_to_recordset), so a run
// of hundreds of episodes costs a few dozen round trips instead of one per step.
//
// Exactly-once recording: a claim increments the episode's attempt; a result is written only when
// its attempt is still the current one and the episode is still running (compare-and-set), and it
// replaces any steps an earlier attempt left. Run counters and events are updated in the same
// transaction, under the run's row lock, so they too count each episode once.
import type { Json } from '../../bridges/core/types.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { StepRecord } from '../harness/types.ts';
import { rolloutDb } from './db.ts';
import { type NewRunEvent, notifyRuns } from './events.ts';
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

export interface RecorderOptions {
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

  constructor(
    private readonly workerId: string,
    options: RecorderOptions = {},
  ) {
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
            await this.write(ops);
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

  private async write(ops: Op[]): Promise<void> {
    const claims = ops.filter((o): o is Extract<Op, { kind: 'claim' }> => o.kind === 'claim');
    const records = ops.filter((o): o is Extract<Op, { kind: 'record' }> => o.kind === 'record');
    const runIds = [...new Set(ops.map((o) => o.req.runId))].sort();
    const db = await rolloutDb();
    const claimed = new Map<string, ClaimedEpisode>();
    const won = new Set<string>();
    let startedNow: string[] = [];
    await db.$transaction(
      async (tx) => {
        claimed.clear();
        won.clear();
        // Episode rows first, the run rows last: the run lock (which orders event ids, see below)
        // is held only for the final two statements, so writers in other processes barely wait.
        // Nobody waits for an episode row while holding a run row, so there is no lock cycle.
        let claimedRows: ClaimedEpisode[] = [];
        if (claims.length > 0) {
          const ids = claims.map((c) => c.req.id);
          claimedRows = await tx.$queryRaw<ClaimedEpisode[]>`
            UPDATE "Episode" SET status = 'running', attempt = attempt + 1, "workerId" = ${this.workerId},
              "startedAt" = now()
            WHERE id = ANY(${ids}::text[]) AND status <> 'done'
              AND "runId" IN (SELECT id FROM "Run" WHERE id = ANY(${runIds}::text[]) AND status IN ('queued', 'running'))
            RETURNING id, "runId", attempt, "taskId", seed, ordinal`;
          claimedRows.sort((a, b) => a.ordinal - b.ordinal);
          for (const row of claimedRows) claimed.set(row.id, row);
        }

        let winners: {
          id: string;
          runId: string;
          ordinal: number;
          taskId: string;
          seed: number;
        }[] = [];
        if (records.length > 0) {
          const rows = records.map((r) => episodeRow(r.req));
          winners = await tx.$queryRaw<typeof winners>`
            UPDATE "Episode" AS e SET status = 'done', outcome = v.outcome::"EpisodeOutcome",
              "failureCategory" = v."failureCategory", "errorKind" = v."errorKind"::"ErrorKind",
              "errorMessage" = v."errorMessage", steps = v.steps, reward = v.reward,
              "costReward" = v."costReward", evaluation = v.evaluation, "legVerdicts" = v."legVerdicts",
              "durationMs" = v."durationMs", "finishedAt" = now()
            FROM jsonb_to_recordset(${json(rows)}::jsonb) AS v(id text, attempt int, outcome text,
              "failureCategory" text, "errorKind" text, "errorMessage" text, steps int, reward float8,
              "costReward" jsonb, evaluation jsonb, "legVerdicts" jsonb, "durationMs" int)
            WHERE e.id = v.id AND e.attempt = v.attempt AND e.status = 'running'
            RETURNING e.id, e."runId", e.ordinal, e."taskId", e.seed`;
          winners.sort((a, b) => a.ordinal - b.ordinal);
          for (const w of winners) won.add(w.id);
          const winning = records.filter((r) => won.has(r.req.id));
          // Steps are written only with a winning outcome, so only a retried episode (attempt > 1)
          // can hold rows of an earlier attempt (e.g. written by an older version): replace them.
          const retried = winning.filter((r) => r.req.attempt > 1).map((r) => r.req.id);
          if (retried.length > 0) {
            await tx.$executeRaw`DELETE FROM "Step" WHERE "episodeId" = ANY(${retried}::text[])`;
          }
          const steps = winning.flatMap((r) =>
            r.req.result.trajectory.map((s) => stepRow(r.req.id, r.req.attempt, s)),
          );
          for (let i = 0; i < steps.length; i += 5000) {
            await insertSteps(tx, steps.slice(i, i + 5000));
          }
        }
        if (claimedRows.length === 0 && winners.length === 0) return;

        const perRun = new Map<string, { id: string; n: number }>();
        const entry = (id: string) => {
          let e = perRun.get(id);
          if (!e) {
            e = { id, n: 0 };
            perRun.set(id, e);
          }
          return e;
        };
        for (const c of claimedRows) entry(c.runId);
        for (const w of winners) entry(w.runId).n += 1;
        const touched = [...perRun.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
        if (touched.length > 1) {
          // Several runs in one transaction: lock them in id order so two writers cannot deadlock.
          await tx.$queryRaw`SELECT id FROM "Run" WHERE id = ANY(${touched.map((t) => t.id)}::text[]) ORDER BY id FOR UPDATE`;
        }
        // A run moves queued -> running exactly once: under READ COMMITTED the status test is
        // re-checked on the latest row after a lock wait, so only one writer gets the row back.
        const mayStart = [...new Set(claimedRows.map((c) => c.runId))].filter(
          (id) => !this.started.has(id),
        );
        const started =
          mayStart.length === 0
            ? []
            : await tx.$queryRaw<{ id: string }[]>`
          UPDATE "Run" SET status = 'running', "startedAt" = now()
          WHERE id = ANY(${mayStart}::text[]) AND status = 'queued'
          RETURNING id`;
        startedNow = mayStart;
        // The run row lock orders event ids: every event insert comes after it, so ids of one run
        // commit in id order and a subscriber reading by cursor never skips a late commit.
        const runs = await tx.$queryRaw<
          { id: string; episodesDone: number; episodesTotal: number; status: string; n: number }[]
        >`
          UPDATE "Run" AS r SET
            "episodesDone" = r."episodesDone" + v.n,
            status = CASE
              WHEN r.status IN ('queued', 'running') AND v.n > 0 AND r."episodesDone" + v.n >= r."episodesTotal" THEN 'completed'::"RunStatus"
              ELSE r.status END,
            "finishedAt" = CASE WHEN v.n > 0 AND r."episodesDone" + v.n >= r."episodesTotal" THEN now() ELSE r."finishedAt" END
          FROM jsonb_to_recordset(${json(touched)}::jsonb) AS v(id text, n int)
          WHERE r.id = v.id
          RETURNING r.id, r."episodesDone", r."episodesTotal", r.status::text AS status, v.n`;
        runs.sort((a, b) => (a.id < b.id ? -1 : 1));

        const events: NewRunEvent[] = [];
        for (const r of started.sort((a, b) => (a.id < b.id ? -1 : 1))) {
          events.push({ runId: r.id, type: 'run_started', payload: {} });
        }
        for (const row of claimedRows) {
          events.push({
            runId: row.runId,
            type: 'episode_started',
            payload: {
              episodeId: row.id,
              ordinal: row.ordinal,
              taskId: row.taskId,
              seed: row.seed,
              attempt: row.attempt,
              workerId: this.workerId,
            },
          });
        }
        const byId = new Map(records.map((r) => [r.req.id, r.req]));
        for (const w of winners) {
          const res = byId.get(w.id)?.result;
          events.push({
            runId: w.runId,
            type: 'episode_ended',
            payload: {
              episodeId: w.id,
              ordinal: w.ordinal,
              taskId: w.taskId,
              seed: w.seed,
              outcome: res?.outcome ?? null,
              failureCategory: res?.failureCategory ?? null,
              errorKind: res?.error?.kind ?? null,
              error: res ? errorMessage(res) : null,
              steps: res?.steps ?? 0,
              reward: res?.reward?.total ?? null,
              durationMs: Math.round(res?.durationMs ?? 0),
            },
          });
        }
        for (const run of runs) {
          if (run.n === 0) continue;
          events.push({
            runId: run.id,
            type: 'run_progress',
            payload: { done: run.episodesDone, total: run.episodesTotal },
          });
          if (run.episodesDone >= run.episodesTotal) {
            const metrics = await runMetrics(tx, run.id);
            events.push({
              runId: run.id,
              type: 'run_completed',
              payload: { status: run.status, metrics: metrics as unknown as Json },
            });
          }
        }
        await insertEventsOrdered(tx, events);
      },
      { timeout: 120_000, maxWait: 120_000 },
    );
    for (const id of startedNow) this.started.add(id);
    notifyRuns(runIds);
    for (const op of claims) op.resolve(claimed.get(op.req.id) ?? null);
    for (const op of records) op.resolve(won.has(op.req.id));
  }
}

async function insertEventsOrdered(tx: Tx, events: NewRunEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e, ord) => ({ ...e, ord }));
  await tx.$executeRaw`
    INSERT INTO "RunEvent" ("runId", "type", "payload")
    SELECT v."runId", v."type", v."payload"
    FROM jsonb_to_recordset(${json(rows)}::jsonb) AS v("runId" text, "type" text, "payload" jsonb, ord int)
    ORDER BY v.ord`;
}

async function insertSteps(tx: Tx, steps: ReturnType<typeof stepRow>[]): Promise<void> {
  if (steps.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "Step" ("episodeId", "index", "attempt", "action", "executedAction", "rawObservation",
      "rawObservationData", "observation", "observationData", "reward", "terminated", "truncated",
      "invalid", "blocked", "changes", "info", "leg", "state", "meta")
    SELECT v."episodeId", v."index", v."attempt", v."action", v."executedAction", v."rawObservation",
      v."rawObservationData", v."observation", v."observationData", v."reward", v."terminated",
      v."truncated", v."invalid", v."blocked", v."changes", v."info", v."leg", v."state", v."meta"
    FROM jsonb_to_recordset(${json(steps)}::jsonb) AS v("episodeId" text, "index" int, "attempt" int,
      "action" jsonb, "executedAction" jsonb, "rawObservation" text, "rawObservationData" jsonb,
      "observation" text, "observationData" jsonb, "reward" float8, "terminated" boolean,
      "truncated" boolean, "invalid" boolean, "blocked" text, "changes" jsonb, "info" jsonb,
      "leg" int, "state" jsonb, "meta" jsonb)`;
}
