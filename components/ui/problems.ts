// Errors as people read them: one sentence per problem, shown next to the field it is about. An
// API error carries its problems (data.issues, server/api/trpc.ts formatError); a form's own check
// parses with the server's schema (contracts/) and gets the same problems, in the same words.
import type { Problem } from '../../contracts/issues.ts';

export type { Problem };

function isProblem(v: unknown): v is Problem {
  const p = v as Partial<Problem> | null;
  return typeof p === 'object' && p !== null && typeof p.message === 'string';
}

function pathOf(raw: unknown): string {
  return Array.isArray(raw) ? raw.map(String).join('.') : typeof raw === 'string' ? raw : '';
}

/** A message that is a JSON list of schema issues (an unformatted zod error): its problems. */
function issuesInMessage(message: string): Problem[] | undefined {
  if (!message.trimStart().startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(message);
    if (!Array.isArray(parsed) || !parsed.every(isProblem)) return undefined;
    return parsed.map((p: Problem & { path?: unknown }) => ({
      path: pathOf(p.path),
      message: p.message,
    }));
  } catch {
    return undefined;
  }
}

/** The problems an error carries: the server's list, else its message as one problem. */
export function problemsOfError(error: unknown): Problem[] {
  if (error === null || error === undefined) return [];
  const data = (error as { data?: { issues?: unknown } }).data;
  if (Array.isArray(data?.issues) && data.issues.every(isProblem)) {
    return data.issues.map((p: Problem) => ({ path: pathOf(p.path), message: p.message }));
  }
  const message =
    error instanceof Error
      ? error.message
      : String((error as { message?: unknown }).message ?? error);
  return issuesInMessage(message) ?? [{ path: '', message }];
}

/** The problems about `path` or anything under it (`band` covers `band.0`). */
export function problemsAt(problems: Problem[], path: string): Problem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
}

/** The problems about none of `paths`: what no field shows, for the form's own note. */
export function otherProblems(problems: Problem[], paths: readonly string[]): Problem[] {
  return problems.filter((p) => !paths.some((path) => problemsAt([p], path).length > 0));
}

/** A problem as a sentence: capitalised, with its path when no field shows it. */
export function sentence(problem: Problem, withPath = false): string {
  const m = problem.message.trim();
  const text =
    withPath && problem.path ? `${problem.path}: ${m}` : m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}
