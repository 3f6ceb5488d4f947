-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "initialObservation" TEXT,
ADD COLUMN     "startSeed" INTEGER;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "groupSize" INTEGER NOT NULL DEFAULT 1;
