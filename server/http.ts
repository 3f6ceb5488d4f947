// The studio's request handler: the tRPC API and the auth routes, behind the host check (local
// mode: only the configured names, against DNS rebinding) and the web security layer (headers,
// CSRF-safe mutations, body limit); every other request goes to `next` (Next's pages).
// server/main.ts serves it; HTTP tests serve the same handler with a stand-in for Next.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { appRouter } from './api/root.ts';
import type { Context } from './api/trpc.ts';
import { createRequestContext } from './auth/context.ts';
import { allowedHosts, hostRefusal } from './auth/hosts.ts';
import { handleAuthRoute } from './auth/http.ts';
import type { Services } from './compose.ts';
import { MAX_BODY_BYTES, withWebSecurity } from './hardening/web.ts';

export const TRPC_PREFIX = '/api/trpc/';

/**
 * Set on every request handed to Next: the studio's own loopback origin, where a page's server-side
 * existence check calls the API (components/trpc/server.ts). Always overwritten, so a client cannot
 * point the server at another host.
 */
export const SELF_ORIGIN_HEADER = 'x-envharness-self';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface StudioHandlerOptions {
  /** Next's request handler (pages). */
  next: Handler;
  dev?: boolean;
  /** This server's own origin (`http://127.0.0.1:3000`), told to pages for server-side API calls. */
  selfOrigin?: string;
  /** Who calls: by default the session / share cookie in team mode, else the one local user. */
  context?: (req: IncomingMessage) => Context | Promise<Context>;
}

export function studioRequestHandler(services: Services, o: StudioHandlerOptions): Handler {
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: TRPC_PREFIX,
    maxBodySize: MAX_BODY_BYTES,
    createContext: async ({ req }) => ({
      ...(await (o.context ? o.context(req) : createRequestContext(services, req))),
      dev: o.dev === true,
    }),
    onError: ({ error, path: procedure }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        console.error(`tRPC ${procedure ?? '?'}:`, error.cause ?? error);
      }
    },
  });
  const handler = withWebSecurity({
    ...(o.dev !== undefined ? { dev: o.dev } : {}),
    trpcPrefix: TRPC_PREFIX,
    trpc,
    before: (req, res) => handleAuthRoute(services.accounts, req, res),
    next: (req, res) => {
      if (o.selfOrigin) req.headers[SELF_ORIGIN_HEADER] = o.selfOrigin;
      else delete req.headers[SELF_ORIGIN_HEADER];
      o.next(req, res);
    },
  });
  const { HOST, ALLOWED_HOSTS } = services.config;
  // Team mode signs every caller in; there the names are checked only when configured.
  if (services.accounts.teamMode && ALLOWED_HOSTS === undefined) return handler;
  const allowed = allowedHosts({ host: HOST, allowed: ALLOWED_HOSTS });
  return (req, res) => {
    const refusal = hostRefusal(req, allowed, { origin: !req.url?.startsWith(TRPC_PREFIX) });
    if (!refusal) {
      handler(req, res);
      return;
    }
    res.statusCode = refusal.status;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(`${refusal.message}\n`);
  };
}
