// One wording for a value that fails its schema, shared by the server (tRPC error responses, the
// CLI's one line) and the studio (inline form errors): a problem is a path and one short sentence
// ("k: must be at most 100"), never zod's JSON. A schema's own message is kept as it is; zod's
// default messages ("Too small: expected number to be >=1") are re-worded from the issue's fields.
import type { z } from 'zod';

/** One problem with a value: where (`band`, `policyOptions.skillBankId`, '' for the whole) and what. */
export interface Problem {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

/** zod's built-in English messages start like this; anything else was written for the schema. */
const ZOD_DEFAULT =
  /^(Too small|Too big|Invalid input|Invalid option|Unrecognized keys?|Invalid string|Invalid number|Invalid URL|Invalid email|Invalid )/;

function num(n: number | bigint): string {
  return n.toLocaleString('en-US');
}

function plural(n: number | bigint, word: string): string {
  return `${num(n)} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

function bound(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string | undefined {
  const small = issue.code === 'too_small';
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'number':
    case 'int':
    case 'bigint':
      if (small)
        return inclusive ? `must be at least ${num(limit)}` : `must be more than ${num(limit)}`;
      return inclusive ? `must be at most ${num(limit)}` : `must be less than ${num(limit)}`;
    case 'string':
      if (small && Number(limit) === 1) return 'must not be empty';
      return `must be at ${small ? 'least' : 'most'} ${plural(limit, 'character')} long`;
    case 'array':
    case 'set':
      if (small && Number(limit) === 1) return 'must not be empty';
      return `must have at ${small ? 'least' : 'most'} ${plural(limit, 'item')}`;
    default:
      return undefined;
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function reworded(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      return bound(issue);
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return 'is required';
      if (issue.expected === 'int') return 'must be a whole number';
      return `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'url') return 'must be a URL';
      if (issue.format === 'email') return 'must be an email address';
      if (issue.format === 'regex') return 'is not in the expected format';
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${num(issue.divisor)}`;
    case 'invalid_union':
      return 'does not match any of the allowed shapes';
    default:
      return undefined;
  }
}

/** The issue as one short sentence: the schema's own message, or zod's default re-worded. */
export function issueMessage(issue: Issue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  return reworded(issue) ?? issue.message;
}

export function pathText(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Every problem of a failed parse, one per issue. */
export function problemsOf(error: { issues: readonly Issue[] }): Problem[] {
  return error.issues.map((issue) => ({
    path: pathText(issue.path),
    message: issueMessage(issue),
  }));
}

/** "path: message", with `root` naming the whole value. */
export function problemLine(problem: Problem, root = '(root)'): string {
  return `${problem.path || root}: ${problem.message}`;
}

/** One line for the first problem ("input.k: must be at least 1"). */
export function firstIssue(error: z.ZodError, root = '(root)'): string {
  const first = problemsOf(error)[0];
  return first ? problemLine(first, root) : `${root}: invalid`;
}
