// Skill banks (EvoHarness experience) and the skill-source comparison.
import { z } from 'zod';
import { RewardParamsSchema } from '../../rollouts/service.ts';
import { CompareInputSchema, compareSkillSources } from '../../skills/compare.ts';
import { getBank, getComparison, listBanks, listComparisons } from '../../skills/store.ts';
import { owns, researcherProcedure, router, viewerProcedure } from '../trpc.ts';

export const skillsRouter = router({
  // Team mode: lists show the active project only.
  banks: viewerProcedure.query(({ ctx }) =>
    listBanks(ctx.db, ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
  ),
  bank: viewerProcedure
    .use(owns('bank', 'id'))
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => getBank(ctx.db, input.id)),
  comparisons: viewerProcedure.query(({ ctx }) =>
    listComparisons(ctx.db, ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
  ),
  comparison: viewerProcedure
    .use(owns('comparison', 'id'))
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => getComparison(ctx.db, input.id)),
  /** Runs a comparison now (small N: seconds) and returns its id. */
  compare: researcherProcedure
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
    .mutation(async ({ input, ctx }) => {
      const r = await compareSkillSources(ctx.services.skillDeps(), {
        ...input,
        persist: true,
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      });
      return { id: r.id, rows: r.rows };
    }),
  /**
   * A recorded run whose policy gets this bank (bpe(...): its experience store; other policies: the
   * top-k skills retrieved per task). The run stores the bank id in its policy options.
   */
  launch: researcherProcedure
    .use(owns('bank', 'bankId'))
    .input(
      z.object({
        bankId: z.string().min(1),
        bridge: z.string().min(1),
        policy: z.string().min(1),
        taskIds: z.array(z.string().min(1)).min(1).max(200),
        k: z.number().int().min(1).max(100).default(1),
        seed: z.number().int().min(0).max(2_147_483_647).default(0),
        maxSteps: z.number().int().min(1).max(1000).default(50),
        rewardParams: RewardParamsSchema.partial().optional(),
      }),
    )
    .mutation(({ input, ctx }) =>
      ctx.services.rollouts.launchRun({
        spec: { version: 1, env: { type: 'base', bridge: input.bridge, task: input.taskIds[0] } },
        policy: input.policy,
        taskIds: input.taskIds,
        k: input.k,
        seed: input.seed,
        maxSteps: input.maxSteps,
        policyOptions: { skillBankId: input.bankId },
        ...(input.rewardParams ? { rewardParams: input.rewardParams } : {}),
        createdBy: ctx.actor,
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
});
