// Skill banks (EvoHarness experience) and the skill-source comparison.
import { z } from 'zod';
import { CompareInputSchema, compareSkillSources } from '../../skills/compare.ts';
import { getBank, getComparison, listBanks, listComparisons } from '../../skills/store.ts';
import { publicProcedure, router } from '../trpc.ts';

export const skillsRouter = router({
  banks: publicProcedure.query(() => listBanks()),
  bank: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input }) => getBank(input.id)),
  comparisons: publicProcedure.query(() => listComparisons()),
  comparison: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input }) => getComparison(input.id)),
  /** Runs a comparison now (small N: seconds) and returns its id. */
  compare: publicProcedure
    .input(
      CompareInputSchema.pick({
        bridge: true,
        policy: true,
        trainSplit: true,
        evalSplit: true,
        seed: true,
        extractor: true,
        envharness: true,
      }).extend({
        envs: z.number().int().min(1).max(50).default(8),
        evalEnvs: z.number().int().min(1).max(200).default(24),
      }),
    )
    .mutation(async ({ input }) => {
      const r = await compareSkillSources({ ...input, persist: true });
      return { id: r.id, rows: r.rows };
    }),
});
