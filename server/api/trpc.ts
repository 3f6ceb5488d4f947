// tRPC foundation: the request context (who is calling), the error mapping from domain errors to
// tRPC codes, and the base procedures every router builds on.
import type { IncomingMessage } from 'node:http';
import { initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server';
import type { AuthState } from '../auth/authorize.ts';
import { authorize, recordCall } from '../auth/authorize.ts';
import { type ErrorKind, KindedError } from '../errors.ts';

export type Role = 'admin' | 'member' | 'viewer';
export interface User {
  id: string;
  role: Role;
}

export interface Context {
  user: User;
  /** Team mode only (server/auth/context.ts): session, active project and role, or share link. */
  auth?: AuthState;
}

/** The embedded default has one local user; team mode will resolve the user from the request here. */
export const LOCAL_USER: User = { id: 'local', role: 'admin' };

export function createContext(_opts?: { req?: IncomingMessage }): Context {
  return { user: LOCAL_USER };
}

const t = initTRPC.context<Context>().create({
  sse: {
    // Keep proxies from closing a quiet stream; the client reconnects (resuming) if it does.
    ping: { enabled: true, intervalMs: 10_000 },
    client: { reconnectAfterInactivityMs: 25_000 },
  },
});

/** The tRPC code of each error kind (bridges/core/errors.ts). */
const TRPC_CODE: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: 'BAD_REQUEST',
  usage: 'BAD_REQUEST',
  harness: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  forbidden: 'FORBIDDEN',
  unauthorized: 'UNAUTHORIZED',
  infra: 'INTERNAL_SERVER_ERROR',
  policy: 'INTERNAL_SERVER_ERROR',
};

/** One place maps the services' typed errors to tRPC codes; routers never catch to rethrow. */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof KindedError) {
      throw new TRPCError({ code: TRPC_CODE[cause.kind], message: cause.message, cause });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Every procedure and subscription is authorised (team mode; server/auth/authorize.ts). */
const authorizeCall = t.middleware(async ({ ctx, path, type, getRawInput, next }) => {
  const input = await getRawInput();
  await authorize({ auth: ctx.auth, path, type, input });
  const result = await next();
  if (result.ok) await recordCall({ auth: ctx.auth, path, type, input, output: result.data });
  return result;
});

export const publicProcedure = t.procedure.use(mapDomainErrors).use(authorizeCall);
