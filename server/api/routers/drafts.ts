// Live co-editing of harness drafts and "follow me" (server/harnesses/drafts.ts). Researchers edit;
// viewers may watch a draft and follow a presenter. Saving a draft is saving a version
// (harnesses.create / saveVersion), which validates the spec as ever.
import { tracked } from '@trpc/server';
import { z } from 'zod';
import {
  DraftGraphSchema,
  DraftOpSchema,
  FollowStateSchema,
  PresenceSchema,
} from '../../../contracts/draft.ts';
import { type Context, researcherProcedure, router, viewerProcedure } from '../trpc.ts';

const DraftIdSchema = z.string().min(1).max(100);

/** The name others see: a team member's account name (or email), never one the client claims. */
async function shownName(ctx: Context, claimed: string): Promise<string> {
  if (ctx.auth.kind !== 'member') return claimed;
  const user = await ctx.services.accounts.loadUser(ctx.auth.userId);
  return (user?.name || user?.email || claimed).slice(0, 80);
}

export const draftsRouter = router({
  /** A new draft from the graph on screen (of a harness, or of a new one). */
  create: researcherProcedure
    .input(z.object({ graph: DraftGraphSchema, harnessId: z.string().min(1).nullish() }))
    .mutation(({ input, ctx }) =>
      ctx.services.drafts.create({
        graph: input.graph,
        harnessId: input.harnessId ?? null,
        projectId: ctx.auth.projectId,
        by: ctx.actor,
      }),
    ),

  byId: viewerProcedure
    .input(z.object({ draftId: DraftIdSchema }))
    .query(({ input, ctx }) => ctx.services.drafts.get(input.draftId, ctx.auth.projectId)),

  /** Open drafts of a harness (harnessId) or of new harnesses (none given). */
  list: viewerProcedure
    .input(z.object({ harnessId: z.string().min(1).nullish() }).optional())
    .query(({ input, ctx }) =>
      ctx.services.drafts.list({
        harnessId: input?.harnessId ?? null,
        projectId: ctx.auth.projectId,
      }),
    ),

  /** The caller's edits, ordered after every edit already in the draft. Not audited per keystroke. */
  submit: researcherProcedure
    .meta({ audit: false })
    .input(
      z.object({
        draftId: DraftIdSchema,
        clientId: z.string().min(1).max(80),
        clientSeq: z.number().int().min(0),
        ops: z.array(DraftOpSchema).min(1).max(200),
      }),
    )
    .mutation(({ input, ctx }) =>
      ctx.services.drafts.submit({
        id: input.draftId,
        projectId: ctx.auth.projectId,
        clientId: input.clientId,
        clientSeq: input.clientSeq,
        actor: ctx.actor,
        ops: input.ops,
      }),
    ),

  /** Who is here and what they selected (a heartbeat every few seconds, and on each change). */
  presence: viewerProcedure
    .meta({ audit: false })
    .input(z.object({ draftId: DraftIdSchema, me: PresenceSchema, leave: z.boolean().optional() }))
    .mutation(async ({ input, ctx }) =>
      ctx.services.drafts.setPresence(
        input.draftId,
        ctx.auth.projectId,
        { ...input.me, name: await shownName(ctx, input.me.name) },
        input.leave,
      ),
    ),

  /**
   * The draft's edits after `after` (its seq), then each new edit and each change of presence as
   * they happen. Edits carry their seq (`tracked`), so a reconnect resumes without gaps.
   */
  live: viewerProcedure
    .input(
      z.object({
        draftId: DraftIdSchema,
        after: z.number().int().min(0),
        lastEventId: z.string().nullish(),
      }),
    )
    .subscription(async function* ({ input, ctx, signal }) {
      const { drafts } = ctx.services;
      await drafts.get(input.draftId, ctx.auth.projectId);
      const resumed = Number(input.lastEventId?.split(':')[0]);
      const after = Number.isInteger(resumed) && resumed >= 0 ? resumed : input.after;
      let seq = after;
      let n = 0;
      for await (const event of drafts.watch(input.draftId, after, signal)) {
        if (event.type === 'ops') seq = event.ops.at(-1)!.seq;
        n += 1;
        // The id carries the last edit's seq: what a reconnect resumes from.
        yield tracked(`${seq}:${n}`, event);
      }
    }),
});

/** "Follow me": a presenter's page and viewport, to everyone in the same project who follows. */
export const followRouter = router({
  present: viewerProcedure
    .meta({ audit: false })
    .input(FollowStateSchema)
    .mutation(async ({ input, ctx }) => {
      const name = await shownName(ctx, input.name);
      ctx.services.drafts.present(ctx.auth.projectId ?? 'local', { ...input, name });
    }),

  presenters: viewerProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const list of ctx.services.drafts.watchPresenters(
      ctx.auth.projectId ?? 'local',
      signal,
    )) {
      yield list;
    }
  }),
});
