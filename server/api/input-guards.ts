// What the tRPC middlewares (trpc.ts) check in every raw input before a procedure runs: that every
// string is clean text (well-formed UTF-16, no NUL or control characters), and which project
// resources the input names anywhere (nested options, arrays, specs), so each can be authorised.
import type { ResourceKind, ResourceRef } from '../auth/resources.ts';
import { InvalidInputError } from '../errors.ts';

/** An input this large (1 MiB bodies hold fewer) is refused rather than walked. */
const MAX_NODES = 250_000;

type Visit = (key: string | undefined, value: unknown, path: string) => string | undefined;

/**
 * Walks every value of a JSON-like input (iteratively: a deeply nested input cannot overflow the
 * stack) and stops at the first problem `visit` reports.
 */
function walk(input: unknown, visit: Visit): string | undefined {
  const stack: { key: string | undefined; value: unknown; path: string }[] = [
    { key: undefined, value: input, path: '' },
  ];
  let seen = 0;
  while (stack.length > 0) {
    const { key, value, path } = stack.pop()!;
    if (++seen > MAX_NODES) return `(input): more than ${MAX_NODES} values`;
    const problem = visit(key, value, path);
    if (problem) return problem;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ key: undefined, value: value[i], path: `${path}[${i}]` });
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        stack.push({ key: k, value: v, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return undefined;
}

// C0 controls other than tab, line feed and carriage return; DEL; C1 controls (a terminal reads
// U+009B as an escape sequence).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// In a `u` regex a surrogate pair is one code point, so \p{Cs} matches only lone surrogates.
const LONE_SURROGATE = /\p{Cs}/u;

function hex(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a string is not clean text, or undefined. */
export function stringProblem(s: string): string | undefined {
  const lone = LONE_SURROGATE.exec(s);
  if (lone) {
    return `has a lone surrogate (${hex(lone[0])}) at character ${lone.index + 1}: text must be well-formed Unicode`;
  }
  const control = CONTROL.exec(s);
  if (control) {
    const what = control[0] === '\u0000' ? 'NUL' : `the control character ${hex(control[0])}`;
    return `has ${what} at character ${control.index + 1}: only tab and line breaks are allowed among control characters`;
  }
  return undefined;
}

/** A path as it can be shown: its unclean characters written as \uXXXX. */
function printable(path: string): string {
  const unclean = new RegExp(`${CONTROL.source}|${LONE_SURROGATE.source}`, 'gu');
  return (path || '(input)').replace(unclean, (c) => `\\u${hex(c).slice(2)}`);
}

/** The first string (value or key) of an input that is not clean text, as "path problem". */
export function textProblem(input: unknown): string | undefined {
  return walk(input, (key, value, path) => {
    if (key !== undefined) {
      const bad = stringProblem(key);
      if (bad) return `${printable(path)} (a key) ${bad}`;
    }
    if (typeof value !== 'string') return undefined;
    const bad = stringProblem(value);
    return bad ? `${printable(path)} ${bad}` : undefined;
  });
}

/** Refuses an input holding a string that is not clean text (InvalidInputError: a 400). */
export function assertCleanText(input: unknown): void {
  const problem = textProblem(input);
  if (problem) throw new InvalidInputError(`invalid input: ${problem}`);
}

const KIND_OF_PREFIX: Record<string, ResourceKind> = {
  run: 'run',
  validationRun: 'run',
  episode: 'episode',
  harness: 'harness',
  harnessVersion: 'harnessVersion',
  rig: 'rig',
  candidate: 'candidate',
  bank: 'bank',
  skillBank: 'bank',
  comparison: 'comparison',
  project: 'project',
  shareLink: 'shareLink',
};

/**
 * Input keys that name a project's resource wherever they appear (`runId`, `runIds`,
 * `policyOptions.skillBankId` …). These names are reserved: no input may use them for anything
 * else. A top-level `id` is declared per procedure (`owns(kind, 'id')`).
 */
export const RESOURCE_KEYS: Readonly<Record<string, ResourceKind>> = Object.fromEntries(
  Object.entries(KIND_OF_PREFIX).flatMap(([prefix, kind]) => [
    [`${prefix}Id`, kind],
    [`${prefix}Ids`, kind],
  ]),
);

/** Id-like input keys that name no project resource: catalogue names, owner-checked sessions, cursors. */
export const NON_RESOURCE_ID_KEYS: ReadonlySet<string> = new Set([
  'id',
  'ids',
  'taskId',
  'taskIds',
  'sessionId',
  'lastEventId',
  // The decision a person saw in force, compared with the one in force on an authorised subject;
  // never looked up on its own.
  'expectedCurrentId',
  // A member of the caller's active project (the service looks it up there only).
  'userId',
  // Live co-editing: a draft is looked up in the caller's project by its service; the client's
  // own id for its connection.
  'draftId',
  'clientId',
]);

/** Every resource an input names under a reserved key, anywhere in it (deduplicated). */
export function resourceRefs(input: unknown): ResourceRef[] {
  const refs = new Map<string, ResourceRef>();
  const add = (kind: ResourceKind, id: unknown) => {
    if (typeof id === 'string' && id !== '') refs.set(`${kind}\u0000${id}`, { kind, id });
  };
  const problem = walk(input, (key, value) => {
    const kind = key === undefined ? undefined : RESOURCE_KEYS[key];
    if (!kind) return undefined;
    if (Array.isArray(value)) for (const v of value) add(kind, v);
    else add(kind, value);
    return undefined;
  });
  if (problem) throw new InvalidInputError(`invalid input: ${problem}`);
  return [...refs.values()];
}
