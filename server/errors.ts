// Typed domain errors. Services throw these; the tRPC middleware and the CLI map them to codes,
// messages and exit statuses in one place each, by `kind` (bridges/core/errors.ts).
import '#server-only';
import type { z } from 'zod';
import { type ErrorKind, KindedError } from '../bridges/core/errors.ts';
import { firstIssue } from '../contracts/issues.ts';

export {
  EnvClosedError,
  EnvInfraError,
  ERROR_KINDS,
  type ErrorKind,
  KindedError,
  kindOf,
  UnknownTaskError,
} from '../bridges/core/errors.ts';

/** An error whose message is meant for the caller: their input, their code, their access. */
export class DomainError extends KindedError {
  readonly kind: ErrorKind = 'invalid';
}

export class NotFoundError extends DomainError {
  override readonly kind = 'not_found';
  override name = 'NotFoundError';
}

export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError';
}

export class InvalidSpecError extends InvalidInputError {
  override name = 'InvalidSpecError';
}

/** The request conflicts with what exists (something already running, a decision already taken). */
export class ConflictError extends DomainError {
  override readonly kind = 'conflict';
  override name = 'ConflictError';
}

export class UnauthorizedError extends DomainError {
  override readonly kind = 'unauthorized';
  override name = 'UnauthorizedError';
}

export class ForbiddenError extends DomainError {
  override readonly kind = 'forbidden';
  override name = 'ForbiddenError';
}

/** A Stage set-up action the environment rejected: names the action and its position. */
export class StageSetupError extends DomainError {
  override readonly kind = 'harness';
  override name = 'StageSetupError';
  constructor(
    message: string,
    readonly actionIndex: number,
    readonly observation: string,
  ) {
    super(message);
  }
}

/** Hook code that failed to compile or run. Line/column are 1-based, in the user's code. */
export class HarnessCodeError extends DomainError {
  override readonly kind = 'harness';
  override name = 'HarnessCodeError';
  constructor(
    message: string,
    readonly hook?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** A failure of the machinery rather than of the caller (database folder held, migrations broken). */
export class InfraError extends KindedError {
  readonly kind = 'infra';
  override name = 'InfraError';
}

/** An error as it crosses a thread or process boundary: plain JSON, kind kept. */
export interface WireError {
  name: string;
  message: string;
  kind?: ErrorKind;
  hook?: string;
  line?: number;
  column?: number;
  actionIndex?: number;
  observation?: string;
  stack?: string;
}

export function toWireError(error: unknown): WireError {
  const err = error instanceof Error ? error : new Error(String(error));
  const e = err as Error & Partial<Record<keyof WireError, unknown>>;
  const out: WireError = { name: err.name, message: err.message };
  const kind = error instanceof KindedError ? error.kind : undefined;
  if (kind) out.kind = kind;
  if (typeof e.hook === 'string') out.hook = e.hook;
  for (const key of ['line', 'column', 'actionIndex'] as const) {
    const v = e[key];
    if (typeof v === 'number') out[key] = v;
  }
  if (typeof e.observation === 'string') out.observation = e.observation;
  if (typeof err.stack === 'string') out.stack = err.stack;
  return out;
}

/** The error a WireError stood for: the same kind (and class, for the ones callers test with instanceof). */
export function fromWireError(raw: WireError): Error {
  let error: Error;
  switch (raw.kind) {
    case 'harness':
      error =
        raw.actionIndex !== undefined
          ? new StageSetupError(raw.message, raw.actionIndex, raw.observation ?? '')
          : new HarnessCodeError(raw.message, raw.hook, raw.line, raw.column);
      break;
    case 'not_found':
      error = new NotFoundError(raw.message);
      break;
    case 'invalid':
    case 'usage':
      error = new InvalidInputError(raw.message);
      break;
    case undefined:
      error = new Error(raw.message);
      break;
    default:
      error = new WiredError(raw.kind, raw.message);
  }
  error.name = raw.name;
  if (raw.stack !== undefined && !(error instanceof DomainError)) error.stack = raw.stack;
  return error;
}

class WiredError extends KindedError {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** Parses a caller's input with its schema; the first problem becomes an InvalidInputError. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  root = 'input',
): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError(firstIssue(parsed.error, root));
  return parsed.data;
}
