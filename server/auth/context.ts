// Who is calling: the request's session cookie (or share-link cookie) resolved to an AuthState in
// team mode; the single local user otherwise. server/main.ts builds every tRPC context here.
import type { IncomingMessage } from 'node:http';
import { type Context, createContext } from '../api/trpc.ts';
import type { AuthState } from './authorize.ts';
import { loadUser, readShareToken, sessionUserId, type TeamRole, teamMode } from './service.ts';

export const SESSION_COOKIE = 'eh_session';
export const SHARE_COOKIE = 'eh_share';
export const PROJECT_COOKIE = 'eh_project';
export const PROJECT_HEADER = 'x-envharness-project';

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const key = part.slice(0, i).trim();
    try {
      out[key] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      // a malformed cookie is ignored, as browsers do
    }
  }
  return out;
}

/** Resolves tokens to who is calling and in which project (membership checked against the DB). */
export async function resolveAuth(o: {
  sessionToken?: string;
  shareToken?: string;
  project?: string;
}): Promise<AuthState> {
  const userId = o.sessionToken ? sessionUserId(o.sessionToken) : undefined;
  const user = userId ? await loadUser(userId) : undefined;
  if (!user) {
    const share = o.shareToken ? readShareToken(o.shareToken) : undefined;
    return { signedIn: false, ...(share ? { share } : {}) };
  }
  const membership = o.project
    ? user.memberships.find((m) => m.projectId === o.project || m.slug === o.project)
    : user.memberships[0];
  // An instance admin administers every project; others need a membership.
  const projectId = membership?.projectId ?? (user.role === 'admin' ? o.project : undefined);
  const projectRole: TeamRole | undefined =
    user.role === 'admin' && projectId ? 'admin' : membership?.role;
  return {
    signedIn: true,
    userId: user.id,
    ...(projectId ? { projectId } : {}),
    ...(projectRole ? { projectRole } : {}),
  };
}

const ANONYMOUS = { id: 'anonymous', role: 'viewer' as const };

/** The tRPC context of a team-mode caller (also used directly by tests through createCaller). */
export function teamContext(auth: AuthState): Context {
  const role =
    auth.projectRole === 'admin' ? 'admin' : auth.projectRole === 'viewer' ? 'viewer' : 'member';
  return {
    user: auth.signedIn && auth.userId ? { id: auth.userId, role } : ANONYMOUS,
    auth,
  };
}

export async function createRequestContext(o: { req: IncomingMessage }): Promise<Context> {
  if (!teamMode()) return createContext({ req: o.req });
  const cookies = parseCookies(o.req.headers.cookie);
  const header = o.req.headers[PROJECT_HEADER];
  const project = (typeof header === 'string' ? header : undefined) ?? cookies[PROJECT_COOKIE];
  const auth = await resolveAuth({
    ...(cookies[SESSION_COOKIE] ? { sessionToken: cookies[SESSION_COOKIE] } : {}),
    ...(cookies[SHARE_COOKIE] ? { shareToken: cookies[SHARE_COOKIE] } : {}),
    ...(project ? { project } : {}),
  });
  return teamContext(auth);
}
