// "Try it": play a harnessed environment step by step in the browser, as a policy would see it
// (server/play/sessions.ts). Nothing here lasts, so none of it is audited.
import { z } from 'zod';
import { ActionSchema, MAX_STAGE_ACTIONS } from '../../harness/spec.ts';
import { researcherProcedure, router } from '../trpc.ts';

const tryOut = researcherProcedure.meta({ audit: false });

export const playRouter = router({
  start: tryOut
    .input(
      z.object({
        spec: z.unknown(),
        seed: z.number().int().default(0),
        taskId: z.string().optional(),
      }),
    )
    .mutation(({ input, ctx }) => ctx.services.play.start(ctx.actor, input)),

  step: tryOut
    .input(z.object({ sessionId: z.string(), action: ActionSchema }))
    .mutation(({ input, ctx }) => ctx.services.play.step(ctx.actor, input.sessionId, input.action)),

  /**
   * Reset and replay actions in one call, for building Stage set-ups: what the environment says after
   * them, what may be typed next, and the first action it rejected (if any).
   */
  replay: tryOut
    .input(
      z.object({
        spec: z.unknown(),
        seed: z.number().int().default(0),
        actions: z.array(ActionSchema).max(MAX_STAGE_ACTIONS),
      }),
    )
    .mutation(({ input, ctx }) => ctx.services.play.replay(input)),

  evaluate: researcherProcedure
    .input(z.object({ sessionId: z.string() }))
    .query(({ input, ctx }) => ctx.services.play.evaluate(ctx.actor, input.sessionId)),

  close: tryOut
    .input(z.object({ sessionId: z.string() }))
    .mutation(({ input, ctx }) => ctx.services.play.close(ctx.actor, input.sessionId)),
});
