// "Serve to a trainer": harness versions served from the studio process as OpenEnv environments
// (server/serve/studio.ts). Reads are for viewers of the version; starting and stopping, researchers.
import { ServeStartInputSchema, ServeVersionInputSchema } from '../../../contracts/serving.ts';
import { researcherProcedure, router, viewerProcedure } from '../trpc.ts';

export const servingRouter = router({
  /** The version's endpoint with its live session count, or null when it is not served here. */
  byVersion: viewerProcedure
    .input(ServeVersionInputSchema)
    .query(({ input, ctx }) => ctx.services.serving.get(input.harnessVersionId)),

  start: researcherProcedure.input(ServeStartInputSchema).mutation(({ input, ctx }) => {
    const a = ctx.auth;
    return ctx.services.serving.start(
      input,
      a.kind === 'member'
        ? { createdBy: a.userId, ...(a.projectId ? { projectId: a.projectId } : {}) }
        : {},
    );
  }),

  stop: researcherProcedure
    .input(ServeVersionInputSchema)
    .mutation(({ input, ctx }) => ctx.services.serving.stop(input.harnessVersionId)),
});
