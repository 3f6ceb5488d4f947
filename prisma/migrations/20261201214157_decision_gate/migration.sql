-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "concerns" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "reversesId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Approval_reversesId_key" ON "Approval"("reversesId");

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_reversesId_fkey" FOREIGN KEY ("reversesId") REFERENCES "Approval"("id") ON DELETE SET NULL ON UPDATE CASCADE;
