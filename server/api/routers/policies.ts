import { z } from 'zod';
import { listPolicies } from '../../policies/index.ts';
import { catalogueProcedure, router } from '../trpc.ts';

export const policiesRouter = router({
  list: catalogueProcedure
    .input(z.object({ bridge: z.string().optional() }).optional())
    .query(({ input, ctx }) =>
      listPolicies(input?.bridge, { openaiModel: ctx.services.config.OPENAI_MODEL }),
    ),
});
