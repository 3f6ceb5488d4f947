// The EvoHarness meta-actions A_bpe (PAPERS.md §2): track[object] / track[world], commit[subgoal],
// recall[query], note[insight]. They arrive typed into the text tool (`act {command: "recall[mug]"}`)
// or as their own tool calls; anything that starts like one but is not well formed gets feedback
// that says what the right form is, and counts as an invalid action.
import type { Action, ToolSpec } from '../../../bridges/core/types.ts';

export const META_VERBS = ['track', 'commit', 'recall', 'note'] as const;
export type MetaVerb = (typeof META_VERBS)[number];

/** Which workspace part each meta-action reads or writes (ablating the part removes the verb). */
export const META_PART: Record<MetaVerb, 'belief' | 'progress' | 'experience'> = {
  track: 'belief',
  commit: 'progress',
  recall: 'experience',
  note: 'experience',
};

export const META_USAGE =
  'Meta-actions are track[object] or track[world], commit[subgoal], recall[query] and note[insight]; each costs one step.';

export const MAX_META_ARG = 300;

export type ParsedMeta =
  | { kind: 'meta'; verb: MetaVerb; arg: string; raw: string }
  | { kind: 'malformed'; raw: string; reason: string }
  | { kind: 'env' };

const VERB_RE = /^\s*(track|commit|recall|note)\b/i;

function parseText(raw: string): ParsedMeta {
  const head = VERB_RE.exec(raw);
  if (!head) return { kind: 'env' };
  const m = /^\s*(track|commit|recall|note)\s*\[(.*)\]\s*$/is.exec(raw);
  const verb = (head[1] ?? '').toLowerCase() as MetaVerb;
  if (!m) {
    return {
      kind: 'malformed',
      raw,
      reason: `malformed meta-action '${raw.trim()}': write ${verb}[…] with the argument in square brackets. ${META_USAGE}`,
    };
  }
  const arg = (m[2] ?? '').trim();
  if (arg.length === 0) {
    return { kind: 'malformed', raw, reason: `${verb}[] needs an argument. ${META_USAGE}` };
  }
  if (arg.length > MAX_META_ARG) {
    return {
      kind: 'malformed',
      raw,
      reason: `${verb}[…] argument is too long (${arg.length} > ${MAX_META_ARG} characters).`,
    };
  }
  return { kind: 'meta', verb, arg, raw: raw.trim() };
}

const TOOL_ARG: Record<MetaVerb, string> = {
  track: 'target',
  commit: 'subgoal',
  recall: 'query',
  note: 'insight',
};

/** Reads an action as a meta-action, a malformed one, or an environment action. */
export function parseMeta(action: Action, textTool?: { name: string; arg: string }): ParsedMeta {
  if (textTool && action.name === textTool.name) {
    const text = action.args[textTool.arg];
    return typeof text === 'string' ? parseText(text) : { kind: 'env' };
  }
  const verb = action.name.toLowerCase();
  if (!(META_VERBS as readonly string[]).includes(verb)) return { kind: 'env' };
  const v = verb as MetaVerb;
  const value = action.args[TOOL_ARG[v]];
  const raw = `${v}[${typeof value === 'string' ? value : JSON.stringify(value ?? '')}]`;
  if (typeof value !== 'string') {
    return {
      kind: 'malformed',
      raw,
      reason: `${v} needs a string '${TOOL_ARG[v]}' argument. ${META_USAGE}`,
    };
  }
  return parseText(`${v}[${value}]`);
}

const DESCRIPTIONS: Record<MetaVerb, string> = {
  track:
    'Read your belief about an object (name or type) or the whole world ("world"). Costs one step.',
  commit:
    'Mark a sub-goal of your progress list done (its number or text; "<subgoal> = pending" reopens it). Costs one step.',
  recall: 'Query your experience (skills, lessons, search priors) for the query. Costs one step.',
  note: 'Queue an insight for your experience store (consolidated after the batch). Costs one step.',
};

export function metaTools(verbs: MetaVerb[]): ToolSpec[] {
  return verbs.map((v) => ({
    name: v,
    description: DESCRIPTIONS[v],
    parameters: {
      type: 'object',
      properties: { [TOOL_ARG[v]]: { type: 'string' } },
      required: [TOOL_ARG[v]],
      additionalProperties: false,
    },
  }));
}
