-- AlterTable
ALTER TABLE "Episode" ADD COLUMN     "cachedTokens" INTEGER,
ADD COLUMN     "llm" JSONB,
ADD COLUMN     "outputTokens" INTEGER,
ADD COLUMN     "promptTokens" INTEGER;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "llm" JSONB;
