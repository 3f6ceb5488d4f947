// EnvRigger in the studio: launch a rig, follow it, review its candidates.
import { z } from 'zod';
import { RigInputSchema } from '../../rigger/loop.ts';
import { reviewCandidate } from '../../rigger/review.ts';
import { getRig, listRigs } from '../../rigger/service.ts';
import {
  auditAs,
  owns,
  researcherProcedure,
  router,
  sharedReadProcedure,
  viewerProcedure,
} from '../trpc.ts';

/** The decision the person saw in force (null: pending); a different one in force is a conflict. */
const ExpectedSchema = z.string().min(1).nullable().optional();

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
  // A share link of the rig opens it too.
  byId: sharedReadProcedure('rig', 'id')
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
    .meta({ audit: 'in-transaction' })
    .use(owns('candidate', 'candidateId'))
    .input(
      z.object({
        candidateId: z.string(),
        decision: z.enum(['approve', 'reject']),
        reason: z.string().trim().max(2000).optional(),
        expectedCurrentId: ExpectedSchema,
      }),
    )
    // A first decision, only while the candidate is pending. Approving saves it to the task's
    // harness library (a Harness and an immutable HarnessVersion, linked from the candidate); a
    // rejection, or an approval the gate raises concerns about, must give its reason.
    .mutation(async ({ input, ctx, path }) => {
      const r = await reviewCandidate(ctx.services.rigDeps(), {
        ...input,
        action: { kind: 'decide', decision: input.decision },
        by: ctx.actor,
        projectId: ctx.auth.projectId ?? undefined,
        audit: auditAs(ctx, path),
      });
      return { ...r.decision, harnessId: r.harnessId, harnessVersionId: r.harnessVersionId };
    }),
  /** Undo a decision on a candidate: a new, audited decision with a reason, never an overwrite. */
  reverse: researcherProcedure
    .meta({ audit: 'in-transaction' })
    .use(owns('candidate', 'candidateId'))
    .input(
      z.object({
        candidateId: z.string(),
        reason: z.string().trim().min(1, 'say why the decision is reversed').max(2000),
        expectedCurrentId: ExpectedSchema,
      }),
    )
    .mutation(async ({ input, ctx, path }) => {
      const r = await reviewCandidate(ctx.services.rigDeps(), {
        ...input,
        action: { kind: 'reverse' },
        by: ctx.actor,
        projectId: ctx.auth.projectId ?? undefined,
        audit: auditAs(ctx, path),
      });
      return { ...r.decision, harnessId: r.harnessId, harnessVersionId: r.harnessVersionId };
    }),
});
