// What one household episode shows, measured from ALFWorld's feedback text (ALFWORLD.md): the
// closed receptacles the agent saw, whether it ever typed `open`, where it first saw each object of
// the goal's type, what it picked up and placed, what it transformed, and when it stood at a closed
// receptacle of the goal's type holding a goal object. The household findings render from these.
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import type { StepRecord } from '../../../harness/types.ts';
import { actionText, escapeRegExp, occurs } from '../../diagnosis-check.ts';
import type { ObservedEpisode } from '../../types.ts';

/** A step with the verbatim text that shows the fact. */
export interface At {
  step: StepRecord;
  quote: string;
}

export interface Sighting extends At {
  name: string;
  /** Where it was (`on countertop 1`, `in cabinet 2`), when the observation says. */
  where: string | null;
}

export interface Moved extends At {
  name: string;
  receptacle: string;
}

export interface HouseholdFacts {
  episode: ObservedEpisode;
  /** The first step whose typed command contains the word `open`. */
  opened: StepRecord | undefined;
  /** Every "The <r> is closed." the agent was shown. */
  closed: (At & { receptacle: string })[];
  /** The first sighting of each object of the goal's type, in order. */
  seen: Sighting[];
  taken: Moved[];
  placed: Moved[];
  /** Goal objects cleaned / heated / cooled (the verb the goal needs), by name: the step. */
  transformed: Map<string, number>;
  /** Arrivals at a closed receptacle of the goal's type while holding an object of the goal's type. */
  heldAtClosedGoal: (At & { holding: string; receptacle: string })[];
}

export const lower = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : undefined);
const typeWord = (name: string) => name.replace(/ \d+$/, '');

/** Where an observation lists contents ("On the countertop 1, you see …" → `on countertop 1`). */
function containerOf(text: string): string | null {
  const m = /\b(On|In) the ([a-z]+ \d+), you see/i.exec(text);
  if (m?.[1] && m[2]) return `${m[1].toLowerCase()} ${m[2].toLowerCase()}`;
  const open = /The ([a-z]+ \d+) is open\. In it, you see/i.exec(text);
  return open?.[1] ? `in ${open[1].toLowerCase()}` : null;
}

/** The verb a goal needs before placing (clean / heat / cool), if any. */
export function neededVerb(task: TaskInfo): 'clean' | 'heat' | 'cool' | undefined {
  const need = /\b(clean|hot|heat|cool)\b/i.exec(task.goal)?.[1]?.toLowerCase();
  if (!need) return undefined;
  return need === 'hot' || need === 'heat' ? 'heat' : (need as 'clean' | 'cool');
}

/** How many objects of the goal's type the goal needs placed. */
export function neededCount(task: TaskInfo): number {
  return task.type === 'pick_two_obj_and_place' ? 2 : 1;
}

export function householdFacts(episode: ObservedEpisode, task: TaskInfo): HouseholdFacts {
  const word = lower(task.meta?.objectType);
  const goalRec = lower(task.meta?.receptacleType);
  const verb = neededVerb(task);
  const facts: HouseholdFacts = {
    episode,
    opened: episode.trajectory.find((s) => occurs(actionText(s.action), 'open')),
    closed: [],
    seen: [],
    taken: [],
    placed: [],
    transformed: new Map(),
    heldAtClosedGoal: [],
  };
  const objectRe = word
    ? new RegExp(`\\b(?:(?:a|an) )?(${escapeRegExp(word)} \\d+)\\b`, 'gi')
    : undefined;
  let holding: string | null = null;
  for (const step of episode.trajectory) {
    const text = step.observation.text;
    const closed = /The ([a-z]+ \d+) is closed\./i.exec(text);
    if (closed?.[1]) {
      const receptacle = closed[1].toLowerCase();
      facts.closed.push({ step, quote: closed[0], receptacle });
      if (holding && goalRec && typeWord(receptacle) === goalRec)
        facts.heldAtClosedGoal.push({ step, quote: closed[0], holding, receptacle });
    }
    for (const m of objectRe ? text.matchAll(objectRe) : []) {
      const name = (m[1] ?? '').toLowerCase();
      if (!facts.seen.some((x) => x.name === name))
        facts.seen.push({ step, quote: m[0], name, where: containerOf(text) });
    }
    const took = /You pick up the ([a-z]+ \d+) from the ([a-z]+ \d+)\./i.exec(text);
    if (took?.[1] && took[2]) {
      holding = took[1].toLowerCase();
      if (typeWord(holding) === word)
        facts.taken.push({
          step,
          quote: took[0],
          name: holding,
          receptacle: took[2].toLowerCase(),
        });
    }
    const put = /You (?:move|put) the ([a-z]+ \d+) (?:to|in|on|in\/on) the ([a-z]+ \d+)\./i.exec(
      text,
    );
    if (put?.[1] && put[2]) {
      const name = put[1].toLowerCase();
      if (typeWord(name) === word)
        facts.placed.push({ step, quote: put[0], name, receptacle: put[2].toLowerCase() });
      holding = null;
    }
    const changed = verb ? new RegExp(`You ${verb} the ([a-z]+ \\d+)`, 'i').exec(text) : null;
    if (changed?.[1]) {
      const name = changed[1].toLowerCase();
      if (!facts.transformed.has(name)) facts.transformed.set(name, step.index);
    }
  }
  return facts;
}
