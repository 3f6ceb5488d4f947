-- Typed columns: every closed set held in a String column becomes a PostgreSQL enum, and a run's
-- policy options and invalid-action loop limit leave "rewardParams" for columns of their own.
--
-- Hand-edited. Prisma's generated script dropped each String column and added it back with the enum
-- type (every value lost, and NOT NULL columns failing on non-empty tables). Here each column
-- changes type in place (ALTER COLUMN ... TYPE ... USING col::"Enum"), which keeps its values, its
-- position and its indexes; values outside a set are mapped first (below), so the casts cannot fail.
-- The app never wrote such values; a database filled by an older or foreign writer could hold them.

-- CreateEnum
CREATE TYPE "FailureCategory" AS ENUM ('step_budget_exhausted', 'gave_up', 'wrong_final_state', 'invalid_action_loop');

-- CreateEnum
CREATE TYPE "RunEventType" AS ENUM ('run_started', 'episode_started', 'episode_ended', 'run_progress', 'run_completed');

-- CreateEnum
CREATE TYPE "RigDesigner" AS ENUM ('heuristic', 'llm');

-- CreateEnum
CREATE TYPE "DiagnosisAxis" AS ENUM ('start_state', 'action', 'observation', 'transition', 'task_understanding', 'none');

-- CreateEnum
CREATE TYPE "SkillBankSource" AS ENUM ('original', 'envharness', 'run', 'manual');

-- CreateEnum
CREATE TYPE "SkillCategory" AS ENUM ('general', 'task', 'mistake', 'prior');

-- CreateEnum
CREATE TYPE "SkillEditOp" AS ENUM ('add', 'update', 'merge', 'delete');

-- Values outside the sets ---------------------------------------------------------------------------

-- An unknown failure category becomes NULL: the run metrics already count a failure without a
-- category as 'unknown'. The episode_ended events that carry it say the same.
UPDATE "Episode" SET "failureCategory" = NULL
WHERE "failureCategory" IS NOT NULL
  AND NOT ("failureCategory" = ANY (enum_range(NULL::"FailureCategory")::text[]));

UPDATE "RunEvent" SET "payload" = jsonb_set("payload", '{failureCategory}', 'null'::jsonb)
WHERE "type" = 'episode_ended'
  AND jsonb_typeof("payload" -> 'failureCategory') = 'string'
  AND NOT (("payload" ->> 'failureCategory') = ANY (enum_range(NULL::"FailureCategory")::text[]));

-- An event of an unknown type has no payload schema to be read with (the event log reports such a
-- row as corrupt and stops the run's stream there) and holds nothing the Run and Episode rows do not:
-- it is removed.
DELETE FROM "RunEvent"
WHERE NOT ("type" = ANY (enum_range(NULL::"RunEventType")::text[]));

-- A diagnosis axis in the paper's notation (S0 | A | O | T | task) is spelled out; any other unknown
-- axis becomes 'none', its old value kept in the diagnosis report as "legacyAxis".
UPDATE "Diagnosis" SET "axis" = CASE "axis"
    WHEN 'S0' THEN 'start_state'
    WHEN 'A' THEN 'action'
    WHEN 'O' THEN 'observation'
    WHEN 'T' THEN 'transition'
    WHEN 'task' THEN 'task_understanding'
  END
WHERE "axis" IN ('S0', 'A', 'O', 'T', 'task');

UPDATE "Diagnosis" SET "axis" = 'none',
  "report" = CASE
    WHEN "report" IS NULL OR jsonb_typeof("report") = 'null' THEN jsonb_build_object('legacyAxis', "axis")
    WHEN jsonb_typeof("report") = 'object' THEN "report" || jsonb_build_object('legacyAxis', "axis")
    ELSE "report"
  END
WHERE NOT ("axis" = ANY (enum_range(NULL::"DiagnosisAxis")::text[]));

-- An unknown designer becomes 'heuristic' (the rig input's default), the old name kept in the rig's
-- constraints as "legacyDesigner".
UPDATE "Rig" SET "designer" = 'heuristic',
  "constraints" = CASE
    WHEN jsonb_typeof("constraints") = 'object' THEN "constraints" || jsonb_build_object('legacyDesigner', "designer")
    ELSE "constraints"
  END
WHERE NOT ("designer" = ANY (enum_range(NULL::"RigDesigner")::text[]));

-- An unknown bank source becomes 'manual' (a bank the app did not build itself), the old value kept
-- in the bank's config as "legacySource".
UPDATE "SkillBank" SET "source" = 'manual',
  "config" = CASE
    WHEN jsonb_typeof("config") = 'object' THEN "config" || jsonb_build_object('legacySource', "source")
    ELSE "config"
  END
WHERE NOT ("source" = ANY (enum_range(NULL::"SkillBankSource")::text[]));

-- An unknown skill category becomes 'general': the skill store already read such skills as general.
UPDATE "Skill" SET "category" = 'general'
WHERE NOT ("category" = ANY (enum_range(NULL::"SkillCategory")::text[]));

-- An unknown edit op becomes 'update' (an edit of an existing skill), the old op kept in its reason.
UPDATE "SkillEdit" SET "op" = 'update', "reason" = '[legacy op ' || "op" || '] ' || "reason"
WHERE NOT ("op" = ANY (enum_range(NULL::"SkillEditOp")::text[]));

-- The enum columns, in place --------------------------------------------------------------------------

-- AlterTable
ALTER TABLE "Diagnosis" ALTER COLUMN "axis" TYPE "DiagnosisAxis" USING "axis"::"DiagnosisAxis";

-- AlterTable
ALTER TABLE "Episode" ALTER COLUMN "failureCategory" TYPE "FailureCategory" USING "failureCategory"::"FailureCategory";

-- AlterTable
ALTER TABLE "Rig" ALTER COLUMN "designer" TYPE "RigDesigner" USING "designer"::"RigDesigner";

-- AlterTable
ALTER TABLE "RunEvent" ALTER COLUMN "type" TYPE "RunEventType" USING "type"::"RunEventType";

-- AlterTable (the index on ("bankId", "category") is rebuilt with the column)
ALTER TABLE "Skill" ALTER COLUMN "category" TYPE "SkillCategory" USING "category"::"SkillCategory";

-- AlterTable
ALTER TABLE "SkillBank" ALTER COLUMN "source" TYPE "SkillBankSource" USING "source"::"SkillBankSource";

-- AlterTable
ALTER TABLE "SkillEdit" ALTER COLUMN "op" TYPE "SkillEditOp" USING "op"::"SkillEditOp";

-- Run settings out of "rewardParams" ----------------------------------------------------------------

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "invalidLoopLimit" INTEGER,
ADD COLUMN     "policyOptions" JSONB;

-- The policy options move as they are (a JSON null becomes no options).
UPDATE "Run" SET
  "policyOptions" = NULLIF("rewardParams" -> 'policyOptions', 'null'::jsonb),
  "rewardParams" = "rewardParams" - 'policyOptions'
WHERE jsonb_typeof("rewardParams") = 'object' AND "rewardParams" -> 'policyOptions' IS NOT NULL;

-- The loop limit moves when it is a whole number in the column's range (launchRun only ever stored
-- such); anything else stays in "rewardParams", where reading the run reports it as before.
UPDATE "Run" SET
  "invalidLoopLimit" = ("rewardParams" ->> 'invalidLoopLimit')::numeric::integer,
  "rewardParams" = "rewardParams" - 'invalidLoopLimit'
WHERE CASE
    WHEN jsonb_typeof("rewardParams") = 'object'
      AND jsonb_typeof("rewardParams" -> 'invalidLoopLimit') = 'number'
    THEN ("rewardParams" ->> 'invalidLoopLimit')::numeric BETWEEN 1 AND 2147483647
      AND ("rewardParams" ->> 'invalidLoopLimit')::numeric % 1 = 0
    ELSE false
  END;
