-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "bridge" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "episodesErrored" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "episodesFailed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "episodesSucceeded" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "meanSteps" DOUBLE PRECISION,
ADD COLUMN     "stepsScored" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "successRate" DOUBLE PRECISION,
ADD COLUMN     "task" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "Run_bridge_createdAt_idx" ON "Run"("bridge", "createdAt");

-- Fill the new columns of existing runs (hand-written; the diff cannot see data).
-- The first base leaf in document order: jsonb orders an object's keys shortest first, so a
-- chain's "first" comes before "second" and "remedial", and a layer's "env" before its actions.
UPDATE "Run" AS r SET
  "bridge" = coalesce(b.leaf->>'bridge', ''),
  "task" = coalesce(b.leaf->>'task', '')
FROM (
  SELECT id, jsonb_path_query_first(spec, 'strict $.env.** ? (@.type == "base" && exists(@.task))') AS leaf
  FROM "Run") AS b
WHERE b.id = r.id;

UPDATE "Run" AS r SET
  "episodesSucceeded" = c.s,
  "episodesFailed" = c.f,
  "episodesErrored" = c.e,
  "stepsScored" = c.steps,
  "successRate" = CASE WHEN c.s + c.f > 0 THEN c.s::float8 / (c.s + c.f) END,
  "meanSteps" = CASE WHEN c.s + c.f > 0 THEN c.steps::float8 / (c.s + c.f) END
FROM (
  SELECT "runId",
    count(*) FILTER (WHERE outcome = 'success')::int AS s,
    count(*) FILTER (WHERE outcome = 'failure')::int AS f,
    count(*) FILTER (WHERE outcome = 'error')::int AS e,
    coalesce(sum(steps) FILTER (WHERE outcome IN ('success', 'failure')), 0)::int AS steps
  FROM "Episode" WHERE status = 'done' GROUP BY "runId") AS c
WHERE c."runId" = r.id;
