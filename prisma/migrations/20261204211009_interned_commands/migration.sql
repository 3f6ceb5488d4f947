-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "commandTable" JSONB;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "commands" TEXT;
