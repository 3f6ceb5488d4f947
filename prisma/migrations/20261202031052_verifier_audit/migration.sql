-- AlterEnum
ALTER TYPE "RunKind" ADD VALUE 'audit';

-- CreateTable
CREATE TABLE "Audit" (
    "id" TEXT NOT NULL,
    "bridge" TEXT NOT NULL,
    "spec" JSONB,
    "split" TEXT,
    "sample" INTEGER,
    "report" JSONB NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "projectId" TEXT,

    CONSTRAINT "Audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Audit_bridge_createdAt_idx" ON "Audit"("bridge", "createdAt");

-- CreateIndex
CREATE INDEX "Audit_projectId_createdAt_idx" ON "Audit"("projectId", "createdAt");
