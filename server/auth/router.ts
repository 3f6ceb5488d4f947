// The auth router: who am I, projects and invites (admin), share links (researcher: create, list,
// revoke), the audit trail. Sign-in and accepting an invite are plain form posts
// (server/auth/http.ts) so the cookie is HttpOnly.
import { z } from 'zod';
import {
  adminProcedure,
  owns,
  publicProcedure,
  researcherProcedure,
  router,
  viewerProcedure,
} from '../api/trpc.ts';
import { InvalidInputError } from '../errors.ts';
import { sharePath } from './http.ts';
import { assertAccessible, type ResourceKind } from './resources.ts';
import { ShareKindSchema } from './tokens.ts';

const RoleSchema = z.enum(['viewer', 'researcher', 'admin']);

const DAY_MS = 24 * 3600_000;
const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');

/** The active project of an admin call (the admin middleware refused a caller without one). */
function projectOf(projectId: string | null): string {
  if (!projectId) throw new InvalidInputError('choose a project first');
  return projectId;
}

function teamOnly(teamMode: boolean, what: string): void {
  if (!teamMode) throw new InvalidInputError(`${what} exist only in team mode (set AUTH_SECRET)`);
}

/** What each kind of share link names. */
const SHARED_KIND: Record<z.infer<typeof ShareKindSchema>, ResourceKind> = {
  run: 'run',
  comparison: 'run',
  trajectory: 'episode',
  harnessVersion: 'harnessVersion',
  rig: 'rig',
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
      user: user
        ? { id: user.id, email: user.email, name: user.name, instanceAdmin: user.role === 'admin' }
        : null,
      projects: user?.memberships ?? [],
      projectId: a.projectId,
      role: a.role,
      share:
        a.kind === 'share'
          ? {
              kind: a.share.kind,
              ids: a.share.ids,
              expiresAt: a.share.expiresAt,
              // The shared page, which the visitor's reduced navigation links to.
              path: await sharePath(ctx.db, a.share),
            }
          : null,
    };
  }),

  /**
   * A new project (instance admins only; its creator becomes its admin). The project to act in is
   * chosen per request (header x-envharness-project or cookie eh_project).
   */
  createProject: adminProcedure
    .input(
      z.object({
        name: z.string().trim().min(1).max(120),
        slug: z
          .string()
          .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a slug is lower-case letters, digits and dashes')
          .max(60)
          .optional(),
      }),
    )
    .mutation(({ input, ctx }) => {
      teamOnly(ctx.services.accounts.teamMode, 'projects');
      return ctx.services.accounts.createProjectAs(ctx.actor, input);
    }),

  // projectId is a reserved key: the admin middleware already checked it is the active project.
  createInvite: adminProcedure
    .input(
      z.object({
        projectId: z.string().min(1),
        role: RoleSchema,
        email: z.string().email().optional(),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      teamOnly(ctx.services.accounts.teamMode, 'invites');
      const invite = await ctx.services.accounts.createInvite({ ...input, by: ctx.actor });
      // Single use: the path holds the only copy of the token (the database keeps its hash).
      return { ...invite, path: `/invite/${invite.token}` };
    }),

  /** The active project's members and open invites (admins). */
  members: adminProcedure.query(({ ctx }) => {
    teamOnly(ctx.services.accounts.teamMode, 'members');
    return ctx.services.accounts.members(projectOf(ctx.auth.projectId));
  }),

  /** Changes a member's role in the active project; the last admin cannot be demoted. */
  setMemberRole: adminProcedure
    .input(z.object({ userId: z.string().min(1), role: RoleSchema }))
    .mutation(({ input, ctx }) => {
      teamOnly(ctx.services.accounts.teamMode, 'members');
      return ctx.services.accounts.setMemberRole({
        projectId: projectOf(ctx.auth.projectId),
        userId: input.userId,
        role: input.role,
        by: ctx.actor,
      });
    }),

  /** Removes a member from the active project; the last admin cannot be removed. */
  removeMember: adminProcedure
    .input(z.object({ userId: z.string().min(1) }))
    .mutation(({ input, ctx }) => {
      teamOnly(ctx.services.accounts.teamMode, 'members');
      return ctx.services.accounts.setMemberRole({
        projectId: projectOf(ctx.auth.projectId),
        userId: input.userId,
        role: null,
        by: ctx.actor,
      });
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
      teamOnly(accounts.teamMode, 'share links');
      // The caller may only share what they may read; another project's thing is "not found".
      const kind = SHARED_KIND[input.kind];
      await assertAccessible(
        ctx.db,
        ctx.auth,
        input.ids.map((id) => ({ kind, id })),
      );
      const link = await accounts.shares.create({
        ...input,
        by: ctx.actor,
        projectId: ctx.auth.projectId,
      });
      return {
        id: link.id,
        token: link.token,
        path: `/share/${link.token}`,
        expiresAt: link.expiresAt,
      };
    }),

  /** The active project's share links, newest first, with who made them and whether they still open. */
  shares: researcherProcedure.query(({ ctx }) => {
    teamOnly(ctx.services.accounts.teamMode, 'share links');
    return ctx.services.accounts.shares.list(ctx.auth.projectId);
  }),

  /** Revokes a share link at once: its next use opens nothing (idempotent). */
  revokeShare: researcherProcedure
    .use(owns('shareLink', 'id'))
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ input, ctx }) => {
      teamOnly(ctx.services.accounts.teamMode, 'share links');
      return ctx.services.accounts.shares.revoke(input.id, ctx.actor);
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
          /** One person: a user id. */
          actor: z.string().min(1).max(100).optional(),
          /** One kind of action: its first word (`runs`, `harnesses`, `auth` …). */
          kind: z
            .string()
            .regex(/^[a-zA-Z]+$/, 'a kind is one word, e.g. runs')
            .optional(),
          /** Days, inclusive: YYYY-MM-DD. */
          from: DaySchema.optional(),
          to: DaySchema.optional(),
        })
        .optional(),
    )
    .query(({ input, ctx }) =>
      ctx.services.accounts.listAudit({
        limit: input?.limit ?? 50,
        ...(input?.cursor ? { cursor: input.cursor } : {}),
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
        ...(input?.actor ? { actor: input.actor } : {}),
        ...(input?.kind ? { kind: input.kind } : {}),
        ...(input?.from ? { from: new Date(`${input.from}T00:00:00.000Z`) } : {}),
        ...(input?.to
          ? { to: new Date(new Date(`${input.to}T00:00:00.000Z`).getTime() + DAY_MS) }
          : {}),
      }),
    ),

  /** The people and kinds of action the project's audit trail holds (the filters' choices). */
  auditFacets: viewerProcedure.query(({ ctx }) =>
    ctx.services.accounts.auditFacets(ctx.auth.projectId ?? undefined),
  ),
});
