// Errors out of the sandbox, worded for the person or the model that has to repair the code:
// "line N, column M: ..." in the user's own text, and limit overruns said as such. Out-of-memory,
// interrupt and stack errors are fatal: the runtime that raised them is never reused.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { capText, MAX_MESSAGE_CHARS, MAX_THROWN_MESSAGE_CHARS } from '../../../contracts/text.ts';
import { HarnessCodeError } from '../../errors.ts';
import { USER_FILE } from './guest.ts';
import type { SandboxLimits } from './limits.ts';
import type { Position } from './loops.ts';

/** A value thrown inside QuickJS, as `ctx.dump` returns it. */
export interface DumpedError {
  name?: string;
  message?: string;
  stack?: string;
  lineNumber?: number;
  /** The message's length before the guest cut it (guest/runtime.js __describe). */
  messageLength?: number;
}

/** Hook code may throw anything (`throw null`, `throw 5`): only objects carry name and message. */
export function asDumpedError(value: unknown): DumpedError {
  if (value !== null && typeof value === 'object') return value as DumpedError;
  return { name: 'Error', message: `threw a non-error value: ${String(value)}` };
}

/**
 * A value thrown out of a guest call, read field by field: only string fields are taken, so no
 * conversion (toString, Symbol.toPrimitive, JSON) runs. What reaches the host is QuickJS's own
 * errors (guest/runtime.js describes the user's thrown values itself); the caller reads it under
 * the hook's limits all the same.
 */
export function readThrown(ctx: QuickJSContext, handle: QuickJSHandle): DumpedError {
  const type = ctx.typeof(handle);
  if (type !== 'object' && type !== 'function') {
    if (type === 'string') return asDumpedError(ctx.getString(handle));
    if (type === 'number') return asDumpedError(ctx.getNumber(handle));
    return asDumpedError(type === 'undefined' ? undefined : `a ${type}`);
  }
  const field = (key: string): string | undefined => {
    const value = ctx.getProp(handle, key);
    try {
      return ctx.typeof(value) === 'string' ? ctx.getString(value) : undefined;
    } finally {
      value.dispose();
    }
  };
  const out: DumpedError = {};
  for (const key of ['name', 'message', 'stack'] as const) {
    const value = field(key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const FATAL_MESSAGES = ['interrupted', 'out of memory', 'stack overflow'];

/** An error after which QuickJS may be inconsistent: drop the runtime (and its wasm instance). */
export function isFatal(err: DumpedError): boolean {
  return err.name === 'InternalError' && FATAL_MESSAGES.includes(err.message ?? '');
}

/** Where in `file` the error happened, from its stack (or QuickJS's lineNumber). */
export function locate(err: DumpedError, file: string): { line?: number; column?: number } {
  const re = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)(?::(\\d+))?`);
  const m = re.exec(err.stack ?? '');
  if (m) return { line: Number(m[1]), column: m[2] ? Number(m[2]) : undefined };
  if (typeof err.lineNumber === 'number') return { line: err.lineNumber };
  return {};
}

export interface ErrorContext {
  hook?: string;
  phase: 'load' | 'call';
  limits: SandboxLimits;
  /**
   * A position in the evaluated file (undefined: the error has none) as one in the user's text:
   * wrappers, loop instrumentation, and where an interrupted hook was looping.
   */
  toUser?: (where: Position | undefined) => Position | undefined;
  /** The user's line count: an error past it (an unfinished expression) is reported at its end. */
  lines?: number;
}

function limitText(err: DumpedError, context: ErrorContext, at: string): string | undefined {
  const who = context.phase === 'load' ? 'hook code' : `hook ${context.hook}`;
  const where = at.replace(/: $/, '') || 'an unknown place';
  switch (err.message) {
    case 'interrupted':
      return `${who} ran longer than its ${context.limits.hookTimeoutMs} ms limit and was stopped (${at}interrupted); hooks must return quickly, without unbounded loops`;
    case 'out of memory':
      return `${who} ran out of memory (limit ${context.limits.memoryMiB} MiB) at ${where}`;
    case 'stack overflow':
      return `${who} overflowed the stack (recursion too deep) at ${where}`;
    default:
      return undefined;
  }
}

/** A sandbox error with its location in the user's text ("line N, column M: ..."). */
export function codeError(
  err: DumpedError,
  context: ErrorContext,
): { error: HarnessCodeError; fatal: boolean } {
  const name = err.name ?? 'Error';
  const message = capText(
    err.message ?? 'threw a value that could not be read',
    MAX_THROWN_MESSAGE_CHARS,
    Math.max(err.messageLength ?? 0, err.message?.length ?? 0),
  );
  const found = locate(err, USER_FILE);
  let where: { line?: number; column?: number } = found;
  if (context.toUser) {
    const inFile =
      found.line !== undefined
        ? { line: found.line, ...(found.column !== undefined ? { column: found.column } : {}) }
        : undefined;
    where = context.toUser(inFile) ?? {};
  }
  if (context.lines !== undefined && where.line !== undefined && where.line > context.lines) {
    where = { line: context.lines };
  }
  const column = where.column;
  const at =
    where.line !== undefined
      ? `line ${where.line}${column !== undefined ? `, column ${column}` : ''}: `
      : '';
  const subject =
    context.phase === 'load'
      ? 'hook code does not compile or failed while loading'
      : `hook ${context.hook} failed`;
  const fatal = isFatal({ name, message });
  const text = (fatal && limitText(err, context, at)) || `${subject}: ${at}${name}: ${message}`;
  return {
    error: new HarnessCodeError(capText(text, MAX_MESSAGE_CHARS), context.hook, where.line, column),
    fatal,
  };
}

/** A failure while loading hook code; `fatal` when the runtime must not be reused. */
export class LoadFailure extends Error {
  constructor(
    readonly error: HarnessCodeError,
    readonly fatal: boolean,
  ) {
    super(error.message);
  }
}
