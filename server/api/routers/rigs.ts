// EnvRigger in the studio: launch a rig, follow it, review its candidates.
import { z } from 'zod';
import { RigInputSchema } from '../../rigger/loop.ts';
import { getRig, listRigs, reviewCandidate, startRig } from '../../rigger/service.ts';
import { publicProcedure, router } from '../trpc.ts';

export const rigsRouter = router({
  list: publicProcedure
    .input(z.object({ bridge: z.string().optional(), taskId: z.string().optional() }).optional())
    .query(({ input }) => listRigs(input ?? {})),
  byId: publicProcedure.input(z.object({ id: z.string() })).query(({ input }) => getRig(input.id)),
  launch: publicProcedure
    .input(RigInputSchema.omit({ createdBy: true, policyOptions: true }))
    .mutation(({ input, ctx }) => startRig({ ...input, createdBy: ctx.user.id })),
  review: publicProcedure
    .input(
      z.object({
        candidateId: z.string(),
        decision: z.enum(['approve', 'reject']),
        reason: z.string().max(2000).optional(),
      }),
    )
    // Approving saves the candidate to the task's harness library (a Harness and an immutable
    // HarnessVersion, linked from the candidate); a rejection must give its reason.
    .mutation(({ input, ctx }) =>
      reviewCandidate({
        ...input,
        by: ctx.user.id,
        ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
});
