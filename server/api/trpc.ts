// tRPC foundation (t3 style): the request context ({ db, auth, services }), the error mapping from
// the error taxonomy to tRPC codes, and the procedures every router builds on. Access is declared
// per procedure: by its base (viewer / researcher / admin, catalogue and shared reads) and by
// resource guards (`owns('run', 'id')`) that load the named resource and check its project.
import { initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server';
import { z } from 'zod';
import { type Problem, problemLine, problemsOf } from '../../contracts/issues.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan, TOO_DEEP_MESSAGE } from '../../contracts/json.ts';
import { type Caller, ROLE_RANK, type Role } from '../auth/caller.ts';
import { assertAccessible, type ResourceKind } from '../auth/resources.ts';
import type { Services } from '../compose.ts';
import type { Db } from '../db/index.ts';
import { isInvalidText } from '../db/queries.ts';
import {
  type ErrorKind,
  ForbiddenError,
  InvalidInputError,
  KindedError,
  UnauthorizedError,
} from '../errors.ts';
import { assertCleanText, RESOURCE_KEYS, resourceRefs } from './input-guards.ts';

export interface Context {
  db: Db;
  auth: Caller;
  services: Services;
  /** Development mode (`server/main.ts --dev`): error responses keep their stack traces. */
  dev?: boolean;
}

export function createContext(services: Services, auth: Caller): Context {
  return { db: services.db, auth, services };
}

export interface ProcedureMeta {
  /** Callable without an account (who am I). */
  public?: true;
  /**
   * `false`: a mutation that only tries things out (no lasting effect), kept out of the audit trail.
   * `'in-transaction'`: the service writes the audit row in the transaction of the action itself
   * (decisions), so an action is never stored without its row; the procedure passes `auditAs(...)`.
   */
  audit?: false | 'in-transaction';
}

/** An error response's data: the code and status, the problems of a refused input, and (dev) the stack. */
export interface ErrorData {
  code: TRPC_ERROR_CODE_KEY;
  httpStatus: number;
  path?: string;
  /** One sentence per problem of an input that failed its schema, with its path. */
  issues?: Problem[];
  stack?: string;
}

/** Said instead of an unexpected error's own message (which may name files and internals). */
export const INTERNAL_MESSAGE =
  'internal error: the server could not answer (details are in its log)';

/**
 * What a caller reads of an error: an input that failed its schema as one sentence per problem
 * (never zod's JSON), and outside development mode neither stack traces nor the messages of
 * unexpected errors, which name files and internals. The server's log keeps those (server/http.ts).
 */
export function formatError(o: {
  shape: { message: string; code: number; data: ErrorData };
  error: TRPCError;
  dev: boolean;
}): { message: string; code: number; data: ErrorData } {
  // tRPC's own stack field is off (isDev: false); development mode puts the error's back.
  const { stack: _default, ...data } = o.shape.data;
  const stack = o.error.stack;
  const cause = o.error.cause;
  const issues = cause instanceof z.core.$ZodError ? problemsOf(cause) : undefined;
  let message = o.shape.message;
  if (issues) message = issues.map((p) => problemLine(p, 'input')).join('; ');
  else if (o.error.code === 'INTERNAL_SERVER_ERROR' && !(cause instanceof KindedError) && !o.dev) {
    message = INTERNAL_MESSAGE;
  }
  return {
    ...o.shape,
    message,
    data: { ...data, ...(issues ? { issues } : {}), ...(o.dev && stack ? { stack } : {}) },
  };
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Stack traces are decided per request (Context.dev), not by NODE_ENV.
    isDev: false,
    errorFormatter: ({ shape, error, ctx }) =>
      formatError({ shape, error, dev: ctx?.dev === true }),
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

/**
 * One place maps the services' typed errors to tRPC codes; routers never catch to rethrow. Text the
 * database cannot store (a NUL character) is the caller's input, not a server failure.
 */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof KindedError) {
      throw new TRPCError({ code: TRPC_CODE[cause.kind], message: cause.message, cause });
    }
    if (isInvalidText(cause)) {
      const error = new InvalidInputError(
        'text must not contain NUL characters or malformed Unicode',
      );
      throw new TRPCError({ code: 'BAD_REQUEST', message: error.message, cause: error });
    }
  }
  return result;
});

/**
 * Inputs nested deeper than MAX_JSON_DEPTH are refused before any schema recurses into them (a
 * 20,000-deep spec would overflow the stack and answer 500).
 */
const boundedInput = t.middleware(async ({ getRawInput, next }) => {
  if (nestsDeeperThan(await getRawInput(), MAX_JSON_DEPTH)) {
    throw new InvalidInputError(`input: ${TOO_DEEP_MESSAGE}`);
  }
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every input's strings are clean text (well-formed UTF-16, no NUL or control characters) before
 * anything runs: such a string would fail later, half-way (a write done, its audit row not).
 */
const cleanInput = t.middleware(async ({ getRawInput, next }) => {
  assertCleanText(await getRawInput());
  return next();
});

// Depth first: the clean-text walk and every schema then meet a bounded input.
const base = t.procedure.use(mapErrors).use(boundedInput).use(cleanInput);

/**
 * Every resource the input names under a reserved key (`runId`, `policyOptions.skillBankId`,
 * `…Ids` lists, nested options, specs; input-guards.ts RESOURCE_KEYS), anywhere in it, must be the
 * caller's to read. Runs inside each role middleware, so no procedure can forget it.
 */
async function guardNamedResources(ctx: Context, getRawInput: () => Promise<unknown>) {
  if (ctx.auth.kind === 'local') return;
  await assertAccessible(ctx.db, ctx.auth, resourceRefs(await getRawInput()));
}

/** The actor of a caller holding at least `need` in the active project (the local user holds all). */
function actorWith(auth: Caller, need: Role, path: string): string {
  switch (auth.kind) {
    case 'local':
      return auth.userId;
    case 'anonymous':
      throw new UnauthorizedError('sign in to use the studio');
    case 'share':
      throw new ForbiddenError('a share link opens one thing read-only; sign in for more');
    case 'member':
      if (!auth.projectId || !auth.role) {
        throw new ForbiddenError('you are not a member of this project');
      }
      if (ROLE_RANK[auth.role] < ROLE_RANK[need]) {
        throw new ForbiddenError(`${path} needs the ${need} role; you are a ${auth.role} here`);
      }
      return auth.userId;
  }
}

/** Members (and the local user) with at least `need` in the active project; adds `actor`. */
function requireRole(need: Role) {
  return t.middleware(async ({ ctx, path, getRawInput, next }) => {
    const actor = actorWith(ctx.auth, need, path);
    await guardNamedResources(ctx, getRawInput);
    return next({ ctx: { actor } });
  });
}

/**
 * Reads that a share-link visitor may also make: the static catalogue, or (with a resource guard
 * right after) the one shared thing. Everyone else needs the viewer role.
 */
const viewerOrShare = t.middleware(async ({ ctx, path, type, getRawInput, next }) => {
  if (ctx.auth.kind !== 'share') actorWith(ctx.auth, 'viewer', path);
  else if (type === 'mutation') {
    throw new ForbiddenError('a share link opens one thing read-only; sign in for more');
  }
  await guardNamedResources(ctx, getRawInput);
  return next();
});

/** Input keys that name the object a mutation acted on, for the audit trail. */
const TARGET_KEYS = [
  'id',
  'runId',
  'episodeId',
  'harnessId',
  'harnessVersionId',
  'rigId',
  'candidateId',
  'bankId',
  'projectId',
] as const;
const DETAIL_KEYS = ['decision', 'reason', 'policy', 'taskIds', 'k', 'name', 'kind', 'role'];

/** The audit trail: every successful team-mode mutation, with who, when, what and on what. */
const auditMutation = t.middleware(async ({ ctx, path, type, meta, getRawInput, next }) => {
  const result = await next();
  const a = ctx.auth;
  if (!result.ok || type !== 'mutation' || meta?.audit !== undefined || a.kind !== 'member') {
    return result;
  }
  const input = asRecord(await getRawInput());
  const output = asRecord(result.data);
  const named = TARGET_KEYS.map((k) => input[k]).find((v) => typeof v === 'string' && v !== '');
  const made = [output.runId, output.rigId, output.id].find((v) => typeof v === 'string');
  const details: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (input[key] !== undefined) details[key] = input[key];
  await ctx.services.accounts.audit({
    actor: a.userId,
    action: path,
    target: (named ?? made ?? null) as string | null,
    projectId: a.projectId,
    details,
  });
  return result;
});

/**
 * Who a service audits an action as, in the action's own transaction (procedures marked
 * `meta({ audit: 'in-transaction' })`): team-mode members, exactly those auditMutation records.
 */
export function auditAs(
  ctx: Context,
  action: string,
): { actor: string; action: string; projectId: string | null } | undefined {
  const a = ctx.auth;
  return a.kind === 'member' ? { actor: a.userId, action, projectId: a.projectId } : undefined;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

/**
 * Resource guard for a top-level key whose kind only the procedure knows (`id`): the resource must
 * be the caller's to read (another project's answers NOT_FOUND, as an absent one does); a
 * share-link visitor must name something the link covers. Reserved keys (`runId` …) are checked
 * wherever they appear by the role middlewares already; here a share visitor must also give one.
 */
export function owns(kind: ResourceKind, key: string) {
  return t.middleware(async ({ ctx, getRawInput, next }) => {
    const a = ctx.auth;
    if (a.kind === 'local') return next();
    const raw = asRecord(await getRawInput())[key];
    const id = typeof raw === 'string' && raw !== '' ? raw : undefined;
    if (a.kind === 'share' && !id) throw new ForbiddenError('this share link does not cover that');
    if (id && RESOURCE_KEYS[key] !== kind) await assertAccessible(ctx.db, a, [{ kind, id }]);
    return next();
  });
}

/** Who am I: callable by anyone. */
export const publicProcedure = base.meta({ public: true });
/** Reads of the active project. */
export const viewerProcedure = base.use(requireRole('viewer'));
/** Writes of the active project (audited). */
export const researcherProcedure = base.use(requireRole('researcher')).use(auditMutation);
/** Members, invites and projects (audited). */
export const adminProcedure = base.use(requireRole('admin')).use(auditMutation);
/** The static catalogue (bridges, tasks, policies): what a shared page also needs. */
export const catalogueProcedure = base.use(viewerOrShare);

/** A read a share link may also make, when it covers the resource the input names. */
export function sharedReadProcedure(kind: ResourceKind, key: string) {
  return base.use(viewerOrShare).use(owns(kind, key));
}
