// Errors of the engine and of the spec parser as validation problems: each names the node it
// belongs to by its spec path, with the hook's line and column when there is one. The engine words
// its errors "<component> at <path>: …" (stage.ts, contract.ts, chain.ts) and the parser
// "invalid harness spec: <json path>: …" (contracts/spec.ts); both are read here, in one place.
import { nodePathOf, type SpecProblem, type ValidationCheck } from '../../contracts/validation.ts';
import { DomainError, HarnessCodeError } from '../errors.ts';

const LOCATED = /^(?:contract|stage|chain) at (env(?:\.[a-z]+)*): /;
const SPEC_PREFIX = 'invalid harness spec: ';

/** "invalid harness spec: env.env.actions[0].name: Required" → that node and what is wrong in it. */
export function specMessageProblem(message: string): SpecProblem {
  const text = message.startsWith(SPEC_PREFIX) ? message.slice(SPEC_PREFIX.length) : message;
  const at = text.indexOf(': ');
  const where = at > 0 ? text.slice(0, at) : '(spec)';
  const what = at > 0 ? text.slice(at + 2) : text;
  const node = nodePathOf(where);
  if (!node) return { path: where, message: what, check: 'spec' };
  // The field inside the node stays in the message: "actions[0].name: Required".
  const field = where.slice(node.length).replace(/^\./, '');
  return { path: node, message: field ? `${field}: ${what}` : what, check: 'spec' };
}

function located(message: string): { path: string; message: string } | undefined {
  const m = LOCATED.exec(message);
  return m?.[1] ? { path: m[1], message: message.slice(m[0].length) } : undefined;
}

/**
 * An error the engine threw while building or playing the stack, as a problem: on the layer it
 * names (else on `fallbackPath`), with the hook's line and column when it has them.
 */
export function errorProblem(
  error: unknown,
  check: ValidationCheck,
  fallbackPath = 'env',
): SpecProblem {
  const err = error instanceof Error ? error : new Error(String(error));
  const at = located(err.message);
  const message =
    err instanceof DomainError ? (at?.message ?? err.message) : `${err.name}: ${err.message}`;
  const problem: SpecProblem = { path: at?.path ?? fallbackPath, message, check };
  if (err instanceof HarnessCodeError) {
    if (err.line !== undefined && err.line > 0) problem.line = err.line;
    if (err.column !== undefined && err.column > 0) problem.column = err.column;
  }
  return problem;
}

/** Whether a problem is already located on a layer by the engine's own wording. */
export function namesLayer(error: unknown): boolean {
  return error instanceof Error && located(error.message) !== undefined;
}
