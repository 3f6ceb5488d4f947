// What every contract check shares: options and results, the violation a check throws, timeouts and
// JSON comparison with a readable first difference.
import { canonicalJson } from '../schema.ts';
import type { Json } from '../types.ts';

export interface ContractOptions {
  /** How many tasks to exercise, spread evenly over listTasks() (default 2). */
  tasks?: number;
  /** Seeds to reset with (default [0, 7]). */
  seeds?: number[];
  /** Actions per generated sequence (default 6). */
  steps?: number;
  /** Per-check time limit, so a hanging bridge fails instead of hanging the caller (default 30 s). */
  timeoutMs?: number;
}

export interface ContractResult {
  name: string;
  ok: boolean;
  detail?: string;
}

/** A check fails by throwing this (or anything else: an unexpected throw is a failure too). */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export const UNKNOWN_TOOL = '__contract_unknown_tool__';
export const TOOL_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

export function fail(message: string): never {
  throw new ContractViolation(message);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ContractViolation(`${what} did not finish within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a as Json) === canonicalJson(b as Json);
}

export function firstDifference(a: unknown, b: unknown): string {
  const left = canonicalJson(a as Json);
  const right = canonicalJson(b as Json);
  let i = 0;
  while (i < left.length && left[i] === right[i]) i++;
  const from = Math.max(0, i - 40);
  return `…${left.slice(from, i + 60)}… vs …${right.slice(from, i + 60)}…`;
}
