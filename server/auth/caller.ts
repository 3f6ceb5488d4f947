// Who is calling, in one vocabulary for the whole product: the embedded default's single local user,
// a signed-in team member (with their role in the active project), a share-link visitor, or nobody.
// Roles are viewer < researcher < admin, as in the schema.
import type { Role } from '../db/index.ts';
import type { Accounts } from './service.ts';
import type { ShareScope } from './tokens.ts';

export type { Role };
export const ROLE_RANK: Record<Role, number> = { viewer: 0, researcher: 1, admin: 2 };

export type Caller =
  /** The embedded default: one local user who may do anything, no projects. */
  | { kind: 'local'; userId: 'local'; role: 'admin'; projectId: null }
  /** Team mode, signed in. Role and project are those of the active project (absent: not a member). */
  | { kind: 'member'; userId: string; role: Role | null; projectId: string | null }
  /** Team mode, no account: a signed share link that opens one thing read-only. */
  | { kind: 'share'; share: ShareScope; userId: null; role: null; projectId: null }
  | { kind: 'anonymous'; userId: null; role: null; projectId: null };

export const LOCAL_CALLER: Caller = {
  kind: 'local',
  userId: 'local',
  role: 'admin',
  projectId: null,
};
export const ANONYMOUS: Caller = { kind: 'anonymous', userId: null, role: null, projectId: null };

/**
 * Resolves tokens to who is calling and in which project. The session and the share link are
 * checked against their rows (a signed-out session or a revoked link is anonymous), the membership
 * against the database.
 */
export async function resolveCaller(
  accounts: Accounts,
  o: { sessionToken?: string; shareToken?: string; project?: string },
): Promise<Caller> {
  if (!accounts.teamMode) return LOCAL_CALLER;
  const userId = o.sessionToken ? await accounts.sessionUserId(o.sessionToken) : undefined;
  const user = userId ? await accounts.loadUser(userId) : undefined;
  if (!user) {
    const share = o.shareToken ? await accounts.shares.open(o.shareToken) : undefined;
    return share ? { kind: 'share', share, userId: null, role: null, projectId: null } : ANONYMOUS;
  }
  const membership = o.project
    ? user.memberships.find((m) => m.projectId === o.project || m.slug === o.project)
    : user.memberships[0];
  // An instance admin administers every project; others need a membership.
  const projectId = membership?.projectId ?? (user.role === 'admin' ? o.project : undefined);
  const role: Role | null =
    user.role === 'admin' && projectId ? 'admin' : (membership?.role ?? null);
  return { kind: 'member', userId: user.id, role, projectId: projectId ?? null };
}
