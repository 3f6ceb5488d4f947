// The studio's start log says which mode it runs in; in team mode, whether anyone can administer
// it and, if not, how to create the first admin.
import '#server-only';
import type { Accounts } from './service.ts';

export async function modeLine(accounts: Accounts): Promise<string> {
  if (!accounts.teamMode) {
    return 'mode: local (one user, no sign-in). Set AUTH_SECRET (32+ characters) for team mode.';
  }
  if (await accounts.hasAdmin()) {
    return 'mode: team (sign-in, roles, projects, share links); an admin exists: sign in at /signin.';
  }
  return 'mode: team (sign-in, roles, projects, share links); NO admin yet: set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create the first one.';
}
