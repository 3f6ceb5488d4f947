-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "HarnessStatus" AS ENUM ('draft', 'approved', 'rejected', 'archived');

-- CreateEnum
CREATE TYPE "RunKind" AS ENUM ('baseline', 'validation', 'rig', 'adhoc');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "QueueKind" AS ENUM ('local', 'bullmq');

-- CreateEnum
CREATE TYPE "EpisodeStatus" AS ENUM ('queued', 'running', 'done');

-- CreateEnum
CREATE TYPE "EpisodeOutcome" AS ENUM ('success', 'failure', 'error');

-- CreateEnum
CREATE TYPE "ErrorKind" AS ENUM ('harness', 'policy', 'infra');

-- CreateEnum
CREATE TYPE "CandidateDecision" AS ENUM ('accept', 'refine', 'reject');

-- CreateEnum
CREATE TYPE "ApprovalDecision" AS ENUM ('approve', 'reject');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('viewer', 'researcher', 'admin');

-- CreateTable
CREATE TABLE "Harness" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "bridge" TEXT NOT NULL,
    "taskId" TEXT,
    "status" "HarnessStatus" NOT NULL DEFAULT 'draft',
    "description" TEXT NOT NULL DEFAULT '',
    "createdBy" TEXT,
    "projectId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Harness_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HarnessVersion" (
    "id" TEXT NOT NULL,
    "harnessId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "spec" JSONB NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HarnessVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "kind" "RunKind" NOT NULL DEFAULT 'adhoc',
    "policy" TEXT NOT NULL,
    "harnessVersionId" TEXT,
    "spec" JSONB NOT NULL,
    "taskIds" TEXT[],
    "k" INTEGER NOT NULL,
    "seeds" INTEGER[],
    "maxSteps" INTEGER NOT NULL,
    "concurrency" INTEGER,
    "queue" "QueueKind" NOT NULL DEFAULT 'local',
    "rewardParams" JSONB NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "episodesTotal" INTEGER NOT NULL DEFAULT 0,
    "episodesDone" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "projectId" TEXT,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Episode" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "status" "EpisodeStatus" NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT,
    "outcome" "EpisodeOutcome",
    "failureCategory" TEXT,
    "errorKind" "ErrorKind",
    "errorMessage" TEXT,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "reward" DOUBLE PRECISION,
    "costReward" JSONB,
    "evaluation" JSONB,
    "legVerdicts" JSONB,
    "durationMs" INTEGER,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Episode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Step" (
    "episodeId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "action" JSONB NOT NULL,
    "executedAction" JSONB,
    "rawObservation" TEXT,
    "rawObservationData" JSONB,
    "observation" TEXT NOT NULL,
    "observationData" JSONB,
    "reward" DOUBLE PRECISION NOT NULL,
    "terminated" BOOLEAN NOT NULL,
    "truncated" BOOLEAN NOT NULL,
    "invalid" BOOLEAN NOT NULL DEFAULT false,
    "blocked" TEXT,
    "changes" JSONB NOT NULL,
    "info" JSONB NOT NULL,
    "leg" INTEGER,
    "state" JSONB,
    "meta" JSONB,

    CONSTRAINT "Step_pkey" PRIMARY KEY ("episodeId","index")
);

-- CreateTable
CREATE TABLE "RunEvent" (
    "id" BIGSERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rig" (
    "id" TEXT NOT NULL,
    "bridge" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "designer" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "maxIterations" INTEGER NOT NULL,
    "rounds" INTEGER NOT NULL DEFAULT 1,
    "constraints" JSONB NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "baselineRunId" TEXT,
    "acceptedCandidateId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "projectId" TEXT,

    CONSTRAINT "Rig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Diagnosis" (
    "id" TEXT NOT NULL,
    "rigId" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 0,
    "axis" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "evidence" JSONB NOT NULL,
    "report" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Diagnosis_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Candidate" (
    "id" TEXT NOT NULL,
    "rigId" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 0,
    "iteration" INTEGER NOT NULL,
    "spec" JSONB NOT NULL,
    "rationale" TEXT NOT NULL,
    "writeError" TEXT,
    "validationRunId" TEXT,
    "stats" JSONB,
    "decision" "CandidateDecision",
    "feedback" TEXT,
    "harnessVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Candidate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL,
    "candidateId" TEXT,
    "harnessVersionId" TEXT,
    "decision" "ApprovalDecision" NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "by" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SkillBank" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "bridge" TEXT,
    "source" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "projectId" TEXT,

    CONSTRAINT "SkillBank_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Skill" (
    "id" TEXT NOT NULL,
    "bankId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "taskType" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "sourceEpisodeIds" TEXT[],
    "uses" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Skill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SkillEdit" (
    "id" BIGSERIAL NOT NULL,
    "bankId" TEXT NOT NULL,
    "skillId" TEXT,
    "op" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "reason" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SkillEdit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comparison" (
    "id" TEXT NOT NULL,
    "bridge" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "trainSplit" TEXT NOT NULL,
    "evalSplit" TEXT NOT NULL,
    "envs" INTEGER NOT NULL,
    "config" JSONB NOT NULL,
    "results" JSONB,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "projectId" TEXT,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT,
    "role" "Role" NOT NULL DEFAULT 'researcher',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "userId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'researcher',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("userId","projectId")
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "projectId" TEXT,
    "email" TEXT,
    "role" "Role" NOT NULL DEFAULT 'researcher',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "projectId" TEXT,
    "details" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Harness_bridge_taskId_idx" ON "Harness"("bridge", "taskId");

-- CreateIndex
CREATE INDEX "Harness_createdAt_idx" ON "Harness"("createdAt");

-- CreateIndex
CREATE INDEX "Harness_projectId_idx" ON "Harness"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "HarnessVersion_harnessId_version_key" ON "HarnessVersion"("harnessId", "version");

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_harnessVersionId_idx" ON "Run"("harnessVersionId");

-- CreateIndex
CREATE INDEX "Run_projectId_createdAt_idx" ON "Run"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "Episode_runId_ordinal_idx" ON "Episode"("runId", "ordinal");

-- CreateIndex
CREATE INDEX "Episode_runId_status_idx" ON "Episode"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Episode_runId_taskId_seed_key" ON "Episode"("runId", "taskId", "seed");

-- CreateIndex
CREATE INDEX "RunEvent_runId_id_idx" ON "RunEvent"("runId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Rig_acceptedCandidateId_key" ON "Rig"("acceptedCandidateId");

-- CreateIndex
CREATE INDEX "Rig_createdAt_idx" ON "Rig"("createdAt");

-- CreateIndex
CREATE INDEX "Rig_bridge_taskId_idx" ON "Rig"("bridge", "taskId");

-- CreateIndex
CREATE INDEX "Diagnosis_rigId_round_idx" ON "Diagnosis"("rigId", "round");

-- CreateIndex
CREATE UNIQUE INDEX "Candidate_rigId_round_iteration_key" ON "Candidate"("rigId", "round", "iteration");

-- CreateIndex
CREATE INDEX "Approval_candidateId_idx" ON "Approval"("candidateId");

-- CreateIndex
CREATE INDEX "Approval_harnessVersionId_idx" ON "Approval"("harnessVersionId");

-- CreateIndex
CREATE INDEX "SkillBank_createdAt_idx" ON "SkillBank"("createdAt");

-- CreateIndex
CREATE INDEX "Skill_bankId_category_idx" ON "Skill"("bankId", "category");

-- CreateIndex
CREATE INDEX "SkillEdit_bankId_id_idx" ON "SkillEdit"("bankId", "id");

-- CreateIndex
CREATE INDEX "SkillEdit_skillId_idx" ON "SkillEdit"("skillId");

-- CreateIndex
CREATE INDEX "Comparison_createdAt_idx" ON "Comparison"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Project_slug_key" ON "Project"("slug");

-- CreateIndex
CREATE INDEX "Membership_projectId_idx" ON "Membership"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE INDEX "AuditLog_at_idx" ON "AuditLog"("at");

-- CreateIndex
CREATE INDEX "AuditLog_projectId_at_idx" ON "AuditLog"("projectId", "at");

-- AddForeignKey
ALTER TABLE "Harness" ADD CONSTRAINT "Harness_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarnessVersion" ADD CONSTRAINT "HarnessVersion_harnessId_fkey" FOREIGN KEY ("harnessId") REFERENCES "Harness"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_harnessVersionId_fkey" FOREIGN KEY ("harnessVersionId") REFERENCES "HarnessVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Episode" ADD CONSTRAINT "Episode_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Step" ADD CONSTRAINT "Step_episodeId_fkey" FOREIGN KEY ("episodeId") REFERENCES "Episode"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEvent" ADD CONSTRAINT "RunEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rig" ADD CONSTRAINT "Rig_baselineRunId_fkey" FOREIGN KEY ("baselineRunId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rig" ADD CONSTRAINT "Rig_acceptedCandidateId_fkey" FOREIGN KEY ("acceptedCandidateId") REFERENCES "Candidate"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rig" ADD CONSTRAINT "Rig_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Diagnosis" ADD CONSTRAINT "Diagnosis_rigId_fkey" FOREIGN KEY ("rigId") REFERENCES "Rig"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Candidate" ADD CONSTRAINT "Candidate_rigId_fkey" FOREIGN KEY ("rigId") REFERENCES "Rig"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Candidate" ADD CONSTRAINT "Candidate_validationRunId_fkey" FOREIGN KEY ("validationRunId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Candidate" ADD CONSTRAINT "Candidate_harnessVersionId_fkey" FOREIGN KEY ("harnessVersionId") REFERENCES "HarnessVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_candidateId_fkey" FOREIGN KEY ("candidateId") REFERENCES "Candidate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_harnessVersionId_fkey" FOREIGN KEY ("harnessVersionId") REFERENCES "HarnessVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillBank" ADD CONSTRAINT "SkillBank_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Skill" ADD CONSTRAINT "Skill_bankId_fkey" FOREIGN KEY ("bankId") REFERENCES "SkillBank"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillEdit" ADD CONSTRAINT "SkillEdit_bankId_fkey" FOREIGN KEY ("bankId") REFERENCES "SkillBank"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillEdit" ADD CONSTRAINT "SkillEdit_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- HarnessVersion rows are immutable (hand-written; Prisma does not model triggers): runs, candidates
-- and approvals refer to a version, so what they refer to must never change. Save a new version instead.
CREATE FUNCTION "harness_version_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'HarnessVersion % is immutable; save a new version instead', OLD."id"
    USING ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER "HarnessVersion_immutable" BEFORE UPDATE ON "HarnessVersion"
  FOR EACH ROW EXECUTE FUNCTION "harness_version_immutable"();
