// EnvRigger in the studio: launch a rig, follow it, review its candidates.
import { z } from 'zod';
import { RigInputSchema } from '../../rigger/loop.ts';
import { getRig, listRigs, reviewCandidate } from '../../rigger/service.ts';
import { owns, researcherProcedure, router, viewerProcedure } from '../trpc.ts';

export const rigsRouter = router({
  list: viewerProcedure
    .input(z.object({ bridge: z.string().optional(), taskId: z.string().optional() }).optional())
    // Team mode: only the active project's rigs.
    .query(({ input, ctx }) =>
      listRigs(ctx.db, {
        ...input,
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
  byId: viewerProcedure
    .use(owns('rig', 'id'))
    .input(z.object({ id: z.string() }))
    .query(({ input, ctx }) => getRig(ctx.services.rigDeps(), input.id)),
  launch: researcherProcedure
    // The project is the caller's active one, never the client's word. A rig is a job: the answer
    // is its id once recorded; the rig runs in the studio's rig queue or on a BullMQ worker.
    .input(RigInputSchema.omit({ createdBy: true, policyOptions: true, projectId: true }))
    .mutation(({ input, ctx }) =>
      ctx.services.rigs.start({
        ...input,
        createdBy: ctx.actor,
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
  review: researcherProcedure
    .use(owns('candidate', 'candidateId'))
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
      reviewCandidate(ctx.services.rigDeps(), {
        ...input,
        by: ctx.actor,
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
});
