// The auth router: who am I, invites (admin), share links (researcher), the audit trail. Sign-in
// and accepting an invite are plain form posts (server/auth/http.ts) so the cookie is HttpOnly.
import { z } from 'zod';
import {
  adminProcedure,
  owns,
  publicProcedure,
  researcherProcedure,
  router,
  viewerProcedure,
} from '../api/trpc.ts';
import { ForbiddenError, InvalidInputError } from '../errors.ts';
import { projectOf, type ResourceKind } from './resources.ts';
import { ShareKindSchema } from './tokens.ts';

const RoleSchema = z.enum(['viewer', 'researcher', 'admin']);

/** What each kind of share link names. */
const SHARED_KIND: Record<z.infer<typeof ShareKindSchema>, ResourceKind> = {
  run: 'run',
  comparison: 'run',
  trajectory: 'episode',
  harnessVersion: 'harnessVersion',
};

export const authRouter = router({
  /** Public: the studio asks this to decide between the sign-in page and the app. */
  me: publicProcedure.query(async ({ ctx }) => {
    const a = ctx.auth;
    if (a.kind === 'local') {
      return {
        mode: 'local' as const,
        user: { id: a.userId, role: a.role },
        projectId: null,
        role: a.role,
      };
    }
    const user = a.kind === 'member' ? await ctx.services.accounts.loadUser(a.userId) : undefined;
    return {
      mode: 'team' as const,
      user: user ? { id: user.id, email: user.email, name: user.name } : null,
      projects: user?.memberships ?? [],
      projectId: a.projectId,
      role: a.role,
      share: a.kind === 'share' ? { kind: a.share.kind, ids: a.share.ids } : null,
    };
  }),

  createInvite: adminProcedure
    .use(owns('project', 'projectId'))
    .input(
      z.object({
        projectId: z.string().min(1),
        role: RoleSchema,
        email: z.string().email().optional(),
      }),
    )
    .mutation(({ input, ctx }) => {
      if (!ctx.services.accounts.teamMode)
        throw new InvalidInputError('invites exist only in team mode (set AUTH_SECRET)');
      return ctx.services.accounts.createInvite({ ...input, by: ctx.actor });
    }),

  /** A signed, expiring link that opens one run, trajectory, comparison or harness version. */
  createShare: researcherProcedure
    .input(
      z.object({
        kind: ShareKindSchema,
        ids: z.array(z.string().min(1)).min(1).max(2),
        ttlHours: z
          .number()
          .int()
          .min(1)
          .max(24 * 365)
          .optional(),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      const { accounts } = ctx.services;
      if (!accounts.teamMode)
        throw new InvalidInputError('share links exist only in team mode (set AUTH_SECRET)');
      // The caller may only share what belongs to their project.
      const kind = SHARED_KIND[input.kind];
      for (const id of input.ids) {
        const project = await projectOf(ctx.db, { kind, id });
        if (project === undefined)
          throw new InvalidInputError(`nothing to share: ${kind} '${id}' not found`);
        if (project !== null && project !== ctx.auth.projectId)
          throw new ForbiddenError(`that ${kind} belongs to another project`);
      }
      const { token, expiresAt } = accounts.createShareToken({ ...input, by: ctx.actor });
      return { token, path: `/share/${token}`, expiresAt };
    }),

  audit: viewerProcedure
    .input(
      z
        .object({
          // The id of the last row of an earlier page (audit rows have numeric ids).
          cursor: z
            .string()
            .regex(/^\d{1,18}$/, 'must be the nextCursor of an earlier page')
            .nullish(),
          limit: z.number().int().min(1).max(200).default(50),
        })
        .optional(),
    )
    .query(({ input, ctx }) =>
      ctx.services.accounts.listAudit({
        limit: input?.limit ?? 50,
        ...(input?.cursor ? { cursor: input.cursor } : {}),
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
});
