// Who is calling, from a request: the session cookie (or share-link cookie) resolved to a Caller in
// team mode; the single local user otherwise. server/main.ts builds every tRPC context here.
import type { IncomingMessage } from 'node:http';
import { type Context, createContext } from '../api/trpc.ts';
import type { Services } from '../compose.ts';
import { resolveCaller } from './caller.ts';

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

export async function createRequestContext(
  services: Services,
  req: IncomingMessage,
): Promise<Context> {
  const cookies = parseCookies(req.headers.cookie);
  const header = req.headers[PROJECT_HEADER];
  const project = (typeof header === 'string' ? header : undefined) ?? cookies[PROJECT_COOKIE];
  const auth = await resolveCaller(services.accounts, {
    ...(cookies[SESSION_COOKIE] ? { sessionToken: cookies[SESSION_COOKIE] } : {}),
    ...(cookies[SHARE_COOKIE] ? { shareToken: cookies[SHARE_COOKIE] } : {}),
    ...(project ? { project } : {}),
  });
  return createContext(services, auth);
}
