// The auth router: who am I, invites (admin), share links (researcher), the audit trail. Sign-in
// and accepting an invite are plain form posts (server/auth/http.ts) so the cookie is HttpOnly.
import { z } from 'zod';
import { publicProcedure, router } from '../api/trpc.ts';
import { ForbiddenError, InvalidInputError } from '../errors.ts';
import { rolloutDb } from '../rollouts/db.ts';
import { projectOf, resourcesOf } from './authorize.ts';
import { createInvite, createShareToken, listAudit, loadUser, teamMode } from './service.ts';
import { ShareKindSchema } from './tokens.ts';

const RoleSchema = z.enum(['viewer', 'researcher', 'admin']);

export const authRouter = router({
  /** Public: the studio asks this to decide between the sign-in page and the app. */
  me: publicProcedure.query(async ({ ctx }) => {
    if (!teamMode() || !ctx.auth) {
      return { mode: 'local' as const, user: ctx.user, projectId: null, role: 'admin' as const };
    }
    const user = ctx.auth.userId ? await loadUser(ctx.auth.userId) : undefined;
    return {
      mode: 'team' as const,
      user: user ? { id: user.id, email: user.email, name: user.name } : null,
      projects: user?.memberships ?? [],
      projectId: ctx.auth.projectId ?? null,
      role: ctx.auth.projectRole ?? null,
      share: ctx.auth.share ? { kind: ctx.auth.share.kind, ids: ctx.auth.share.ids } : null,
    };
  }),

  createInvite: publicProcedure
    .input(
      z.object({
        projectId: z.string().min(1),
        role: RoleSchema,
        email: z.string().email().optional(),
      }),
    )
    .mutation(({ input, ctx }) => {
      if (!teamMode())
        throw new InvalidInputError('invites exist only in team mode (set AUTH_SECRET)');
      return createInvite({ ...input, by: ctx.user.id });
    }),

  /** A signed, expiring link that opens one run, trajectory, comparison or harness version. */
  createShare: publicProcedure
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
      if (!teamMode())
        throw new InvalidInputError('share links exist only in team mode (set AUTH_SECRET)');
      // The caller may only share what belongs to their project.
      const kind =
        input.kind === 'trajectory'
          ? 'episodeId'
          : input.kind === 'harnessVersion'
            ? 'harnessVersionId'
            : 'runId';
      const db = await rolloutDb();
      for (const id of input.ids) {
        for (const r of resourcesOf('auth.createShare', { [kind]: id })) {
          const project = await projectOf(db, r);
          if (project === undefined)
            throw new InvalidInputError(`nothing to share: ${r.kind} '${id}' not found`);
          if (project !== null && project !== ctx.auth?.projectId)
            throw new ForbiddenError(`that ${r.kind} belongs to another project`);
        }
      }
      const { token, expiresAt } = createShareToken({ ...input, by: ctx.user.id });
      return { token, path: `/share/${token}`, expiresAt };
    }),

  audit: publicProcedure
    .input(
      z
        .object({
          cursor: z.string().nullish(),
          limit: z.number().int().min(1).max(200).default(50),
        })
        .optional(),
    )
    .query(({ input, ctx }) =>
      listAudit({
        limit: input?.limit ?? 50,
        ...(input?.cursor ? { cursor: input.cursor } : {}),
        ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),
});
