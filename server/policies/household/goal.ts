// A tiny parser for ALFWorld goal templates (ALFWORLD.md "Task types, goals and success").
// Scripted household policies read the goal text only — never the task type — so a harness that
// rewrites the goal is seen exactly as an agent would see it.

export type GoalKind = 'pick' | 'look' | 'clean' | 'heat' | 'cool' | 'pick2';

export interface HouseholdGoal {
  kind: GoalKind;
  /** Object type, lower-case, no number (e.g. `mug`). */
  object: string;
  /** Target receptacle type for placing tasks (e.g. `countertop`). */
  receptacle?: string;
  /** Light source type for look tasks (e.g. `desklamp`). */
  toggle?: string;
}

const WORD = '([a-z][a-z ]*?)';
const END = '\\s*\\.?\\s*$';

const TEMPLATES: { re: RegExp; build: (m: RegExpMatchArray) => HouseholdGoal }[] = [
  {
    re: new RegExp(
      `^(?:put|place) two ${WORD} (?:in|on|into|onto|in/on) (?:the |a )?${WORD}${END}`,
    ),
    build: (m) => ({ kind: 'pick2', object: m[1] ?? '', receptacle: m[2] ?? '' }),
  },
  {
    re: new RegExp(
      `^find two ${WORD} and put them (?:in|on|into|onto|in/on) (?:the |a )?${WORD}${END}`,
    ),
    build: (m) => ({ kind: 'pick2', object: m[1] ?? '', receptacle: m[2] ?? '' }),
  },
  {
    re: new RegExp(`^look at (?:the |a |some )?${WORD} under the ${WORD}${END}`),
    build: (m) => ({ kind: 'look', object: m[1] ?? '', toggle: m[2] ?? '' }),
  },
  {
    re: new RegExp(`^examine the ${WORD} with the ${WORD}${END}`),
    build: (m) => ({ kind: 'look', object: m[1] ?? '', toggle: m[2] ?? '' }),
  },
  {
    re: new RegExp(
      `^(?:put|place) (?:a|an|some) (clean|hot|cool|cold) ${WORD} (?:in|on|into|onto|in/on) (?:the |a )?${WORD}${END}`,
    ),
    build: (m) => ({ kind: stateKind(m[1] ?? ''), object: m[2] ?? '', receptacle: m[3] ?? '' }),
  },
  {
    re: new RegExp(
      `^(clean|heat|cool) (?:some |a |an |the )?${WORD} and put it (?:in|on|into|onto|in/on) (?:the |a )?${WORD}${END}`,
    ),
    build: (m) => ({ kind: stateKind(m[1] ?? ''), object: m[2] ?? '', receptacle: m[3] ?? '' }),
  },
  {
    re: new RegExp(
      `^(?:put|place) (?:a |an |some |the )?${WORD} (?:in|on|into|onto|in/on) (?:the |a )?${WORD}${END}`,
    ),
    build: (m) => ({ kind: 'pick', object: m[1] ?? '', receptacle: m[2] ?? '' }),
  },
];

function stateKind(word: string): GoalKind {
  if (word === 'clean') return 'clean';
  if (word === 'hot' || word === 'heat') return 'heat';
  return 'cool';
}

/** Drops spaces inside type names ("alarm clock" -> "alarmclock") so they match object names. */
function typeName(words: string): string {
  return words.trim().replace(/\s+/g, '');
}

/** The goal sentence from a full observation (`Your task is to: ...`) or from the goal text itself. */
export function goalSentence(text: string): string {
  const m = /your task is to:\s*(.+)/i.exec(text);
  return (m?.[1] ?? text).trim();
}

export function parseGoal(text: string): HouseholdGoal | undefined {
  const sentence = goalSentence(text).toLowerCase().split('\n')[0]?.trim() ?? '';
  for (const t of TEMPLATES) {
    const m = sentence.match(t.re);
    if (m) {
      const g = t.build(m);
      const out: HouseholdGoal = { kind: g.kind, object: typeName(g.object) };
      if (g.receptacle) out.receptacle = typeName(g.receptacle);
      if (g.toggle) out.toggle = typeName(g.toggle);
      return out;
    }
  }
  return undefined;
}

/** The state adjective the goal requires of the object, if any. */
export function requiredState(goal: HouseholdGoal): 'clean' | 'hot' | 'cool' | undefined {
  if (goal.kind === 'clean') return 'clean';
  if (goal.kind === 'heat') return 'hot';
  if (goal.kind === 'cool') return 'cool';
  return undefined;
}
