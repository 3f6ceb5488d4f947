// Household failure patterns (ALFWorld's feedback text and task metadata): closed receptacles
// walked past, and a goal object placed without the transformation the goal asks for. Each
// description is rendered from the episodes' measured facts (household-facts.ts); a negative
// statement is made only when it holds on every step of the episodes it is about, and carries a
// claim the checker proves again before the diagnosis is stored.
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import { counterexample } from '../../diagnosis-check.ts';
import type { Claim, Evidence, ObservedEpisode } from '../../types.ts';
import type { Finding } from './design.ts';
import { interleave } from './diagnose.ts';
import {
  type At,
  type HouseholdFacts,
  householdFacts,
  lower,
  neededCount,
  neededVerb,
} from './household-facts.ts';

export function objectWordOf(task: TaskInfo): string | undefined {
  return lower(task.meta?.objectType);
}

const article = (w: string) => (/^[aeiou]/.test(w) ? `an ${w}` : `a ${w}`);
const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);
const list = (xs: string[], last = 'and') =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} ${last} ${xs.at(-1)}`;
const NUMBER_WORDS = ['no', 'one', 'two', 'three'];
const cap = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);

function evidenceAt(e: ObservedEpisode, at: At, note: string): Evidence {
  return { episodeId: e.episodeId, step: at.step.index, quote: at.quote, note };
}

/** A negative claim, made only when it holds on every step of its episodes. */
function absence(
  facts: HouseholdFacts[],
  claim: Omit<Claim, 'episodeIds' | 'kind'>,
): Claim | undefined {
  if (facts.length === 0) return undefined;
  if (facts.some((f) => counterexample(f.episode, claim))) return undefined;
  return { kind: 'absent', ...claim, episodeIds: facts.map((f) => f.episode.episodeId) };
}

function stepRange(steps: number[]): string {
  const lo = Math.min(...steps);
  const hi = Math.max(...steps);
  return lo === hi ? `step ${lo}` : `steps ${lo}–${hi}`;
}

/** What the episodes that never opened anything show about the goal objects: sentences and claims. */
function targetSentences(
  hits: HouseholdFacts[],
  task: TaskInfo,
  word: string,
): { text: string[]; claims: Claim[] } {
  const text: string[] = [];
  const claims: Claim[] = [];
  const needed = neededCount(task);
  const groups = new Map<string, HouseholdFacts[]>();
  for (const f of hits) {
    const key = f.seen.map((s) => s.name).join(',');
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const parts: string[] = [];
  for (const [key, fs] of groups) {
    const n = `in ${fs.length} of them`;
    if (key === '') {
      const phrase = `never saw ${article(word)}`;
      const c = absence(fs, { in: 'observation', text: word, phrase });
      if (c) {
        claims.push(c);
        parts.push(`${n} it ${phrase}`);
      }
      continue;
    }
    const names = key.split(',');
    if (names.length >= needed) continue;
    const where = [...new Set(fs.flatMap((f) => f.seen.map((s) => s.where)).filter(Boolean))];
    const first = stepRange(fs.map((f) => f.seen[0]?.step.index ?? 0));
    const took = fs.filter((f) => f.taken.some((t) => names.includes(t.name))).length;
    const phrase = `never saw ${article(word)} other than ${list(names, 'or')}`;
    const c = absence(fs, { in: 'observation', text: word, except: names, phrase });
    const pickedUp =
      took === 0 ? '' : took === fs.length ? ' and picked it up' : ` and picked it up in ${took}`;
    const seen = `${n} it saw ${list(names)} (${where.length ? `${list(where as string[])}, ` : ''}first at ${first})${pickedUp}`;
    if (c) claims.push(c);
    parts.push(c ? `${seen}, and ${phrase}` : seen);
  }
  if (parts.length > 0) {
    const need = needed > 1 ? `The goal needs ${NUMBER_WORDS[needed] ?? needed} ${word}s: ` : '';
    const joined = parts.join('; ');
    text.push(need ? `${need}${joined}.` : `${cap(joined)}.`);
  }
  return { text, claims };
}

/** An episode's steps for never-opens: the first closed receptacle, goal object seen, taken, carried to a closed goal receptacle. */
function openingEvidence(f: HouseholdFacts): Evidence[] {
  const e = f.episode;
  const items: Evidence[] = [];
  const c = f.closed[0];
  if (c) items.push(evidenceAt(e, c, `${c.receptacle} is closed; \`open\` is typed at no step`));
  const s = f.seen[0];
  if (s) items.push(evidenceAt(e, s, `first sight of ${s.name}`));
  const t = f.taken[0];
  if (t) items.push(evidenceAt(e, t, `picked up ${t.name}`));
  const h = f.heldAtClosedGoal[0];
  if (h) items.push(evidenceAt(e, h, `at the closed ${h.receptacle} holding ${h.holding}`));
  return items;
}

/** Closed receptacles seen and never an `open` typed, with what that cost the agent. */
function neverOpens(facts: HouseholdFacts[], task: TaskInfo): Finding | undefined {
  const word = objectWordOf(task);
  const needed = neededCount(task);
  const hits = facts.filter(
    (f) =>
      !f.opened &&
      f.closed.length > 0 &&
      (f.seen.length < needed ||
        f.heldAtClosedGoal.length > 0 ||
        f.episode.failureCategory === 'gave_up' ||
        f.episode.failureCategory === 'step_budget_exhausted'),
  );
  const opens = absence(hits, { in: 'action', text: 'open', phrase: 'never typed `open`' });
  if (!opens) return undefined;
  const firstClosed = hits[0]?.closed[0];
  const claims: Claim[] = [opens];
  const text = [
    `In ${hits.length} of ${facts.length} failing episode(s) the agent saw closed receptacles ("${firstClosed?.quote}") and ${opens.phrase}.`,
  ];
  if (word) {
    const t = targetSentences(hits, task, word);
    text.push(...t.text);
    claims.push(...t.claims);
  }
  const held = hits.filter((f) => f.heldAtClosedGoal.length > 0);
  const goalRec = lower(task.meta?.receptacleType);
  if (held.length > 0 && goalRec) {
    const times = held.reduce((n, f) => n + f.heldAtClosedGoal.length, 0);
    const objects = [...new Set(held.flatMap((f) => f.heldAtClosedGoal.map((h) => h.holding)))];
    const where = [...new Set(held.flatMap((f) => f.heldAtClosedGoal.map((h) => h.receptacle)))];
    text.push(
      `In ${held.length} of them it arrived at a closed ${goalRec} (the goal's receptacle type: ${list(where)}) while holding ${list(objects)}, ${times} ${plural(times, 'time')} in all.`,
    );
  }
  text.push('What is inside closed receptacles stays out of its reach.');
  return {
    axis: 'action',
    label: 'never-opens-closed-receptacles',
    description: text.join(' '),
    evidence: interleave(hits.map(openingEvidence), 12),
    claims,
    episodes: hits.length,
    rank: 0,
  };
}

/** The goal object was placed before the state change the goal asks for. */
function skipsTransform(facts: HouseholdFacts[], task: TaskInfo): Finding | undefined {
  const verb = neededVerb(task);
  const word = objectWordOf(task);
  if (!verb || !word) return undefined;
  const state = verb === 'heat' ? 'hot' : verb;
  const early = facts
    .map((f) => ({
      f,
      placed: f.placed.find((p) => {
        const at = f.transformed.get(p.name);
        return at === undefined || at > p.step.index;
      }),
    }))
    .filter((x) => x.placed !== undefined);
  if (early.length === 0) return undefined;
  const first = early[0]?.placed;
  const text = [
    `The goal asks for ${article(state)} ${word}, but in ${early.length} of ${facts.length} failing episode(s) the agent placed ${article(word)} before any \`${verb}\` of it ("${first?.quote}").`,
  ];
  const claims: Claim[] = [];
  const phrase = `never typed \`${verb}\``;
  const never = early.filter((x) => !counterexample(x.f.episode, { in: 'action', text: verb }));
  const c = absence(
    never.map((x) => x.f),
    { in: 'action', text: verb, phrase },
  );
  if (c) {
    claims.push(c);
    const all = never.length === 2 ? 'both' : `all ${never.length}`;
    const who = never.length === early.length ? all : `${never.length}`;
    text.push(
      `In ${never.length === 1 && early.length === 1 ? 'that episode' : `${who} of them`} it ${phrase}.`,
    );
  }
  text.push('It ignores the state the goal requires.');
  return {
    axis: 'task_understanding',
    label: 'skips-required-transformation',
    description: text.join(' '),
    evidence: early
      .slice(0, 12)
      .map(({ f, placed }) =>
        evidenceAt(f.episode, placed as At, `placed ${placed?.name} before any "${verb}" of it`),
      ),
    claims,
    episodes: early.length,
    rank: 0,
  };
}

/** Defect words that point at a household finding. */
export const HOUSEHOLD_DEFECT_HINTS = [
  [/\bopen|closed|inside|drawer|cabinet/i, 'never-opens-closed-receptacles'],
  [/clean|heat|hot|cool|state|transform|verif/i, 'skips-required-transformation'],
] as const satisfies readonly (readonly [RegExp, string])[];

export function householdFindings(
  failing: ObservedEpisode[],
  task: TaskInfo,
): (Finding | undefined)[] {
  const facts = failing.map((e) => householdFacts(e, task));
  return [neverOpens(facts, task), skipsTransform(facts, task)];
}
