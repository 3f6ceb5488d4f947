// What the caller may do, from `auth.me`, so the studio disables what a role may not do and says why
// instead of letting the click fail with an error that names a procedure. The server still decides.
import { type RoleName, roleAtLeast } from '../../contracts/roles.ts';

export interface Me {
  mode: 'local' | 'team';
  role: RoleName | null;
  user: { id: string } | null;
  share?: unknown;
}

/** Why the caller may not do what needs `need` ("launch runs"), or undefined when they may. */
export function blockedReason(
  me: Me | undefined,
  need: RoleName,
  what: string,
): string | undefined {
  if (!me || me.mode === 'local') return undefined;
  if (me.share) return `This page is open through a read-only share link: sign in to ${what}.`;
  if (!me.user) return `Sign in to ${what}.`;
  if (!me.role) return `You are not a member of this project, so you cannot ${what}.`;
  if (roleAtLeast(me.role, need)) return undefined;
  return `You are a ${me.role} in this project: to ${what} you need the ${need} role (an admin can give it).`;
}
