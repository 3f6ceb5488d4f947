-- AlterEnum
ALTER TYPE "ShareKind" ADD VALUE 'rig';

-- CreateTable
CREATE TABLE "HarnessDraft" (
    "id" TEXT NOT NULL,
    "harnessId" TEXT,
    "projectId" TEXT,
    "graph" JSONB NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HarnessDraft_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HarnessDraftOp" (
    "draftId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSeq" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "op" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HarnessDraftOp_pkey" PRIMARY KEY ("draftId","seq")
);

-- CreateIndex
CREATE INDEX "HarnessDraft_harnessId_idx" ON "HarnessDraft"("harnessId");

-- CreateIndex
CREATE INDEX "HarnessDraft_projectId_updatedAt_idx" ON "HarnessDraft"("projectId", "updatedAt");

-- AddForeignKey
ALTER TABLE "HarnessDraftOp" ADD CONSTRAINT "HarnessDraftOp_draftId_fkey" FOREIGN KEY ("draftId") REFERENCES "HarnessDraft"("id") ON DELETE CASCADE ON UPDATE CASCADE;
