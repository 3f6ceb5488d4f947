// Solvability lint for the graph editor: is the spec on screen still winnable? The recorded
// successes of its base task come from the store; the replay runs in the studio's worker pool.
import { z } from 'zod';
import { parseSpec } from '../../harness/index.ts';
import { recordedSuccesses } from '../../lint/service.ts';
import { researcherProcedure, router } from '../trpc.ts';

export const lintRouter = router({
  check: researcherProcedure
    .meta({ audit: false })
    .input(z.object({ spec: z.unknown(), seed: z.number().int().min(0).max(1_000_000).default(0) }))
    .mutation(async ({ input, ctx }) => {
      const spec = parseSpec(input.spec);
      const recorded = await recordedSuccesses(ctx.db, spec, { projectId: ctx.auth.projectId });
      return ctx.services.studio.job('lint', { spec, seed: input.seed, recorded });
    }),
});
