// The recorder's SQL: one statement per batch of claims and results, built from the CTEs below
// (data-modifying CTEs over JSON-encoded rows). See recorder.ts for the exactly-once rules.
import { Prisma } from '../db/generated/client.ts';
import { type Db, pgliteOf } from '../db/index.ts';
import { runBound } from '../db/pglite-bound.ts';
import type { EncodedTrajectory } from './step-rows.ts';

// Rows travel as one JSON parameter, read with jsonb_to_recordset: parsed once into jsonb, each
// jsonb column is then a slice of it. json_to_recordset re-parsed every jsonb column from its text,
// which made the step insert three times as costly on the server (84 steps: 2.9 ms against 0.9).
const json = (v: unknown) => JSON.stringify(v);

/** Moves runs queued -> running (once: the status test is re-checked after a lock wait). */
export function startRunsSql(runIds: string[]): Prisma.Sql {
  return Prisma.sql`
    WITH s AS (
      UPDATE "Run" SET status = 'running', "startedAt" = now()
      WHERE id = ANY(${runIds}::text[]) AND status = 'queued' RETURNING id)
    INSERT INTO "RunEvent" ("runId", "type", "payload")
    SELECT id, 'run_started'::"RunEventType", '{}'::jsonb FROM s ORDER BY id`;
}

/** Drops the steps an earlier attempt of a retried, still running episode left. */
export function dropStaleStepsSql(retried: { id: string; attempt: number }[]): Prisma.Sql {
  return Prisma.sql`
    DELETE FROM "Step" AS s USING "Episode" AS e, jsonb_to_recordset(${json(retried)}::jsonb) AS v(id text, attempt int)
    WHERE s."episodeId" = v.id AND e.id = v.id AND e.attempt = v.attempt AND e.status = 'running'`;
}

export interface Batch {
  /** 'off' on a PostgreSQL server (see recorder.ts), 'on' on PGlite. */
  syncCommit: 'on' | 'off';
  workerId: string;
  runIds: string[];
  claimIds: string[];
  /** Episode result rows (recorder.ts episodeRow). */
  rows: unknown[];
  /** Each result's steps. */
  steps: EncodedSteps[];
}

export interface EncodedSteps {
  /** The episode. */
  id: string;
  attempt: number;
  /** Its steps and command table, encoded (step-rows.ts encodeSteps). */
  encoded: EncodedTrajectory;
}

/**
 * The batch's steps as one JSON parameter: each episode's encoded steps and command table spliced
 * in as they came (from the worker thread that played it), neither parsed nor encoded again here.
 */
function stepsParam(b: Batch): string {
  const episodes = b.steps.map(
    (e) =>
      `{"id":${JSON.stringify(e.id)},"attempt":${e.attempt},"commands":${e.encoded.commands},"steps":${e.encoded.steps}}`,
  );
  return `[${episodes.join(',')}]`;
}

/** An episode a worker claimed: its new attempt and what it plays. */
export interface ClaimedEpisode {
  id: string;
  runId: string;
  attempt: number;
  taskId: string;
  seed: number;
  startSeed: number | null;
  ordinal: number;
}

export interface BatchOutcome {
  claimed: ClaimedEpisode[];
  /** The results written, as `episode id#attempt` (a stale attempt may share the batch). */
  won: string[];
  /** Runs this batch left in a final status (completed by its last result). */
  ended: string[];
}

/** Claims: episodes not done, of runs still open, move to running under a new attempt. */
const claimedCte = (b: Batch) => Prisma.sql`
  claimed AS (
    UPDATE "Episode" AS e SET status = 'running', attempt = e.attempt + 1, "workerId" = ${b.workerId}, "startedAt" = now()
    WHERE e.id = ANY(${b.claimIds}::text[]) AND e.status <> 'done'
      AND e."runId" IN (SELECT id FROM "Run" WHERE id = ANY(${b.runIds}::text[]) AND status IN ('queued', 'running'))
    RETURNING e.id, e."runId", e.attempt, e."taskId", e.seed, e."startSeed", e.ordinal)`;

/**
 * Results: written only for the current attempt of a running episode (compare-and-set), with the
 * command table of their steps (p: the steps parameter, parsed once for this and the step insert).
 */
const wonCte = (b: Batch) => Prisma.sql`
  p AS (
    SELECT * FROM jsonb_to_recordset(${stepsParam(b)}::jsonb) AS e(id text, attempt int, commands jsonb, steps jsonb)),
  v AS (
    SELECT * FROM jsonb_to_recordset(${json(b.rows)}::jsonb) AS v(id text, attempt int, outcome text,
      "failureCategory" text, "errorKind" text, "errorMessage" text, steps int, reward float8,
      "costReward" jsonb, evaluation jsonb, "legVerdicts" jsonb, "durationMs" int,
      "promptTokens" int, "outputTokens" int, "cachedTokens" int, llm jsonb,
      "initialObservation" text, "finishedAt" timestamptz)),
  won AS (
    UPDATE "Episode" AS e SET status = 'done', outcome = v.outcome::"EpisodeOutcome",
      "failureCategory" = v."failureCategory"::"FailureCategory", "errorKind" = v."errorKind"::"ErrorKind",
      "errorMessage" = v."errorMessage", steps = v.steps, reward = v.reward,
      "costReward" = v."costReward", evaluation = v.evaluation, "legVerdicts" = v."legVerdicts",
      "durationMs" = v."durationMs", "promptTokens" = v."promptTokens",
      "outputTokens" = v."outputTokens", "cachedTokens" = v."cachedTokens", llm = v.llm,
      "initialObservation" = v."initialObservation",
      "finishedAt" = v."finishedAt", "commandTable" = p.commands
    FROM v LEFT JOIN p ON p.id = v.id AND p.attempt = v.attempt
    WHERE e.id = v.id AND e.attempt = v.attempt AND e.status = 'running'
    RETURNING e.id, e.attempt, e."runId", e.ordinal, e."taskId", e.seed, e."startSeed", v.outcome, v."failureCategory",
      v."errorKind", v."errorMessage", v.steps, v.reward, v."durationMs")`;

/**
 * The steps of the winning results only, read back from their short keys (step-rows.ts encodeStep):
 * `same` stands for an executed action and raw observation equal to the agent's.
 */
const stepsCte = Prisma.sql`
  ins AS (
    INSERT INTO "Step" ("episodeId", "index", "attempt", "action", "executedAction", "rawObservation",
      "rawObservationData", "observation", "observationData", "reward", "terminated", "truncated",
      "invalid", "blocked", "changes", "info", "leg", "state", "meta", "llm", "commands")
    SELECT e.id, s.i, e.attempt, s.a, CASE WHEN s.same THEN s.a ELSE s.x END,
      CASE WHEN s.same THEN s.o ELSE s.ro END, s.rd, s.o, s.od, s.r, s.te, s.tr, s.iv, s.b, s.ch,
      s.nf, s.l, s.st, s.m, s.ll, s.cm
    FROM p AS e, jsonb_to_recordset(e.steps) AS s(i int, a jsonb, same boolean, x jsonb, ro text,
      rd jsonb, o text, od jsonb, r float8, te boolean, tr boolean, iv boolean, b text, ch jsonb,
      nf jsonb, l int, st jsonb, m jsonb, ll jsonb, cm text)
    WHERE (e.id, e.attempt) IN (SELECT id, attempt FROM won)
    RETURNING 1)`;

// A batch of results only (no claim joined it) leaves the claims out instead of planning and running
// them over an empty list (same columns, no rows).
const noClaims = Prisma.sql`
  claimed AS (
    SELECT NULL::text AS id, NULL::text AS "runId", NULL::int AS attempt, NULL::text AS "taskId",
      NULL::int AS seed, NULL::int AS "startSeed", NULL::int AS ordinal WHERE false)`;

/** Run counters and completion, counting each winning result once. */
const runsCte = Prisma.sql`
  counts AS (
    -- The filter on ins makes the step insert finish before the run rows are locked, so the
    -- lock is held only for the run update, the event insert and the commit.
    SELECT id, sum(n)::int AS n, sum(s)::int AS s, sum(f)::int AS f, sum(e)::int AS e,
      sum(steps)::int AS steps FROM (
      SELECT "runId" AS id, 0 AS n, 0 AS s, 0 AS f, 0 AS e, 0 AS steps FROM claimed
      UNION ALL
      SELECT "runId", 1, (outcome = 'success')::int, (outcome = 'failure')::int,
        (outcome = 'error')::int, CASE WHEN outcome IN ('success', 'failure') THEN steps ELSE 0 END
      FROM won) AS x
    WHERE (SELECT count(*) FROM ins) >= 0
    GROUP BY id),
  runs AS (
    UPDATE "Run" AS r SET "episodesDone" = r."episodesDone" + c.n,
      "episodesSucceeded" = r."episodesSucceeded" + c.s,
      "episodesFailed" = r."episodesFailed" + c.f,
      "episodesErrored" = r."episodesErrored" + c.e,
      "stepsScored" = r."stepsScored" + c.steps,
      "successRate" = CASE WHEN r."episodesSucceeded" + c.s + r."episodesFailed" + c.f > 0
        THEN (r."episodesSucceeded" + c.s)::float8 / (r."episodesSucceeded" + c.s + r."episodesFailed" + c.f)
        ELSE r."successRate" END,
      "meanSteps" = CASE WHEN r."episodesSucceeded" + c.s + r."episodesFailed" + c.f > 0
        THEN (r."stepsScored" + c.steps)::float8 / (r."episodesSucceeded" + c.s + r."episodesFailed" + c.f)
        ELSE r."meanSteps" END,
      status = CASE WHEN r.status IN ('queued', 'running') AND c.n > 0 AND r."episodesDone" + c.n >= r."episodesTotal"
        THEN 'completed'::"RunStatus" ELSE r.status END,
      "finishedAt" = CASE WHEN c.n > 0 AND r."episodesDone" + c.n >= r."episodesTotal" THEN now() ELSE r."finishedAt" END
    FROM counts AS c WHERE r.id = c.id
    RETURNING r.id, r."episodesDone" AS done, r."episodesTotal" AS total, r.status::text AS status, c.n)`;

/** The run's events, built from the run update's output (ids drawn with the run row locked). */
const eventsCte = (b: Batch) => Prisma.sql`
  ev AS (
    INSERT INTO "RunEvent" ("runId", "type", "payload")
    SELECT x."runId", x.type::"RunEventType", x.payload FROM (
      SELECT c."runId", 'episode_started' AS type, jsonb_build_object('episodeId', c.id, 'ordinal', c.ordinal,
          'taskId', c."taskId", 'seed', c.seed, 'attempt', c.attempt, 'workerId', ${b.workerId}::text) AS payload,
        1 AS grp, c.ordinal AS ord
      FROM claimed AS c JOIN runs ON runs.id = c."runId"
      UNION ALL
      SELECT w."runId", 'episode_ended', jsonb_build_object('episodeId', w.id, 'ordinal', w.ordinal,
          'taskId', w."taskId", 'seed', w.seed, 'startSeed', w."startSeed", 'outcome', w.outcome, 'failureCategory', w."failureCategory",
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
    RETURNING 1)`;

/**
 * A batch of claims only (a worker taking its next episode) changes no counter: its runs are
 * locked (FOR UPDATE, the lock the run update takes) rather than rewritten, and the statement is a
 * fraction of the full one for the server to plan — planning was most of a claim's cost.
 */
function claimsOnlySql(b: Batch): Prisma.Sql {
  return Prisma.sql`
    WITH
    cfg AS (SELECT set_config('synchronous_commit', ${b.syncCommit}, true) AS v),
    ${claimedCte(b)},
    runs AS (SELECT id FROM "Run" WHERE id IN (SELECT "runId" FROM claimed) ORDER BY id FOR UPDATE),
    ev AS (
      INSERT INTO "RunEvent" ("runId", "type", "payload")
      SELECT c."runId", 'episode_started'::"RunEventType", jsonb_build_object('episodeId', c.id,
        'ordinal', c.ordinal, 'taskId', c."taskId", 'seed', c.seed, 'attempt', c.attempt,
        'workerId', ${b.workerId}::text)
      FROM claimed AS c JOIN runs ON runs.id = c."runId"
      ORDER BY c."runId", c.ordinal
      RETURNING 1)
    SELECT
      (SELECT v FROM cfg) AS cfg,
      (SELECT coalesce(jsonb_agg(to_jsonb(c) ORDER BY c.ordinal), '[]'::jsonb) FROM claimed AS c) AS claimed,
      '[]'::jsonb AS won,
      '[]'::jsonb AS ended,
      0 AS steps,
      (SELECT count(*) FROM ev)::int AS events`;
}

/** Claims, results, steps, run counters and events of one batch, in one statement. */
export function recordBatchSql(b: Batch): Prisma.Sql {
  if (b.rows.length === 0) return claimsOnlySql(b);
  return Prisma.sql`
    WITH
    cfg AS (SELECT set_config('synchronous_commit', ${b.syncCommit}, true) AS v),
    ${b.claimIds.length > 0 ? claimedCte(b) : noClaims},
    ${wonCte(b)},
    ${stepsCte},
    ${runsCte},
    ${eventsCte(b)}
    SELECT
      (SELECT v FROM cfg) AS cfg,
      (SELECT coalesce(jsonb_agg(to_jsonb(c) ORDER BY c.ordinal), '[]'::jsonb) FROM claimed AS c) AS claimed,
      (SELECT coalesce(jsonb_agg(w.id || '#' || w.attempt), '[]'::jsonb) FROM won AS w) AS won,
      (SELECT coalesce(jsonb_agg(runs.id), '[]'::jsonb) FROM runs
        WHERE runs.status NOT IN ('queued', 'running')) AS ended,
      (SELECT count(*) FROM ins)::int AS steps,
      (SELECT count(*) FROM ev)::int AS events`;
}

/**
 * Runs a batch's statements in one transaction; the last one is recordBatchSql, whose outcome is
 * returned. On PGlite they go to the instance itself, in one exchange (db/pglite-bound.ts): a raw
 * query through Prisma serialises its parameters to JSON and parses them back, and a batch's rows
 * are one large JSON parameter — that round trip cost more CPU than the insert. Same SQL, same
 * transaction, same results.
 */
export async function runBatch(
  db: Db,
  statements: Prisma.Sql[],
): Promise<BatchOutcome | undefined> {
  const lite = pgliteOf(db);
  if (lite) {
    try {
      return await runOnPGlite(lite, statements);
    } catch (error) {
      // A prepared statement dropped behind our back (DEALLOCATE): prepared again, once. The
      // batch's transaction failed whole, and every write of it is a compare-and-set.
      if ((error as { code?: string }).code !== '26000') throw error;
      return await runOnPGlite(lite, statements);
    }
  }
  const last = statements.length - 1;
  const queries = statements.map((st, i) => (i === last ? db.$queryRaw(st) : db.$executeRaw(st)));
  const results = queries.length === 1 ? [await queries[0]] : await db.$transaction(queries);
  return (results[last] as BatchOutcome[])[0];
}

type Lite = NonNullable<ReturnType<typeof pgliteOf>>;

async function runOnPGlite(
  lite: Lite,
  statements: Prisma.Sql[],
): Promise<BatchOutcome | undefined> {
  const last = statements[statements.length - 1];
  if (!last) return undefined;
  // The batch statement (the last) is planned once per PGlite instance, not at every write:
  // planning its CTEs was about a quarter of a write's CPU (2–3 ms of 9 for three episodes).
  const rows = await runBound(
    lite,
    statements.map((st) => ({ text: st.text, values: st.values, prepare: st === last })),
  );
  if (rows) {
    const row = rows[0];
    return (
      row && {
        claimed: JSON.parse(row.claimed ?? '[]'),
        won: JSON.parse(row.won ?? '[]'),
        ended: JSON.parse(row.ended ?? '[]'),
      }
    );
  }
  // A value no text parameter carries: the same statements through PGlite's own queries.
  return lite.transaction(async (tx) => {
    for (const st of statements.slice(0, -1)) await tx.query(st.text, st.values);
    return (await tx.query<BatchOutcome>(last.text, last.values)).rows[0];
  });
}
