// EnvRigger in the studio: launch a rig, follow it, review its candidates.
import { z } from 'zod';
import { RigInputSchema } from '../../rigger/loop.ts';
import { getRig, listRigs, reviewCandidate, startRig } from '../../rigger/service.ts';
import { publicProcedure, router } from '../trpc.ts';

export const rigsRouter = router({
  list: publicProcedure
    .input(z.object({ bridge: z.string().optional(), taskId: z.string().optional() }).optional())
    // Team mode: only the active project's rigs.
    .query(({ input, ctx }) =>
      listRigs({ ...input, ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}) }),
    ),
  byId: publicProcedure.input(z.object({ id: z.string() })).query(({ input }) => getRig(input.id)),
  launch: publicProcedure
    // The project is the caller's active one (authorised by the middleware), never the client's word.
    .input(RigInputSchema.omit({ createdBy: true, policyOptions: true, projectId: true }))
    .mutation(({ input, ctx }) =>
      startRig({
        ...input,
        createdBy: ctx.user.id,
        ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
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
