import { z } from 'zod';
import { listPolicies } from '../../policies/index.ts';
import { publicProcedure, router } from '../trpc.ts';

export const policiesRouter = router({
  list: publicProcedure
    .input(z.object({ bridge: z.string().optional() }).optional())
    .query(({ input }) => listPolicies(input?.bridge)),
});
