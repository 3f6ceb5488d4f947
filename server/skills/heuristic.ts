// The offline extractor: skills from trajectory statistics, no model. Strategies come from
// successes, lessons from failures compared with successes, search priors from where objects were
// seen. Every rule reads what an agent saw (feedback text through the bridge's belief extractor)
// and the verifier's verdict — never which policy produced the episode.
import { BeliefStore, beliefExtractorFor } from '../policies/bpe/belief.ts';
import { parseGoal, requiredState } from '../policies/household/goal.ts';
import { typeOf } from '../policies/household/observation.ts';
import type { EpisodeDigest, SkillDraft } from './types.ts';

interface Replay {
  digest: EpisodeDigest;
  goalObject?: string;
  goalReceptacle?: string;
  kind?: string;
  /** object name -> receptacle where it was first seen */
  firstSeen: Map<string, string>;
  /** receptacles seen closed and never opened afterwards */
  leftClosed: Set<string>;
  /** the goal object was first seen right after opening its receptacle */
  foundAfterOpen: boolean;
  targetSeen: boolean;
  /** commands retyped right after "Nothing happens." */
  failedRepeats: number;
  /** placed a goal object into a goal receptacle without the state the goal asks */
  placedWithoutState: boolean;
  /** abstract plan: commands with names replaced by their roles */
  plan: string[];
}

function role(name: string, r: Replay): string {
  const t = typeOf(name);
  if (t === r.goalObject) return `the ${t}`;
  if (t === r.goalReceptacle) return `a ${t}`;
  return `a ${t}`;
}

function abstractCommand(command: string, r: Replay): string | undefined {
  const m = /^(go to|open|take|move|put|clean|heat|cool|use|examine|slice)\s+(.+)$/.exec(command);
  if (!m?.[1] || !m[2]) return undefined;
  const names = m[2].split(/\s+(?:from|to|with|in\/on|in|on)\s+/);
  const obj = names[0] ? role(names[0], r) : '';
  const where = names[1] ? role(names[1], r) : '';
  switch (m[1]) {
    case 'go to':
    case 'open':
    case 'examine':
      return 'search';
    case 'take':
      return `take ${obj}`;
    case 'move':
    case 'put':
      return `move it to ${where}`;
    case 'clean':
    case 'heat':
    case 'cool':
      return `${m[1]} it with ${where}`;
    case 'use':
      return `turn on ${obj}`;
    case 'slice':
      return `slice ${obj}`;
  }
  return undefined;
}

export function replayEpisode(d: EpisodeDigest): Replay {
  const goal = parseGoal(d.goal);
  const r: Replay = {
    digest: d,
    ...(goal ? { goalObject: goal.object, kind: goal.kind } : {}),
    ...(goal?.receptacle ? { goalReceptacle: goal.receptacle } : {}),
    firstSeen: new Map(),
    leftClosed: new Set(),
    foundAfterOpen: false,
    targetSeen: false,
    failedRepeats: 0,
    placedWithoutState: false,
    plan: [],
  };
  const extractor = beliefExtractorFor(d.bridge);
  const store = new BeliefStore();
  extractor.update(store, { text: d.initialObservation, info: {} });
  const need = goal ? requiredState(goal) : undefined;
  let previous: { command: string; failed: boolean } | undefined;
  for (const s of d.steps_) {
    if (s.meta) continue;
    const failed = s.invalid || /^\s*nothing happens\.?\s*$/i.test(s.observation);
    if (previous?.failed && previous.command === s.command) r.failedRepeats += 1;
    previous = { command: s.command, failed };
    const changes = extractor.update(store, { text: s.observation, info: {}, command: s.command });
    for (const c of changes) {
      if (c.key.startsWith('recep:')) {
        const rec = c.key.slice(6);
        if (c.after === 'closed') r.leftClosed.add(rec);
        else if (c.after === 'open') r.leftClosed.delete(rec);
      }
      if (c.key.startsWith('loc:') && c.after && c.after !== 'held') {
        const object = c.key.slice(4);
        if (!r.firstSeen.has(object)) {
          r.firstSeen.set(object, c.after);
          if (typeOf(object) === r.goalObject) {
            r.targetSeen = true;
            if (/^open /.test(s.command)) r.foundAfterOpen = true;
          }
        }
        if (
          need &&
          typeOf(object) === r.goalObject &&
          r.goalReceptacle &&
          typeOf(c.after) === r.goalReceptacle &&
          !(store.facts.get(`state:${object}`) ?? '').split(' ').includes(need)
        ) {
          r.placedWithoutState = true;
        }
      }
    }
    if (!failed) {
      const a = abstractCommand(s.command, r);
      if (a && !(a === 'search' && r.plan.at(-1) === 'search')) r.plan.push(a);
    }
  }
  return r;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0
    ? 0
    : s.length % 2
      ? (s[mid] ?? 0)
      : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const STATE_WORD: Record<string, string> = { clean: 'clean', heat: 'heat', cool: 'cool' };

export interface HeuristicOptions {
  /** Minimum distinct episodes behind a search prior. */
  minPriorEvidence?: number;
}

export function extractHeuristic(digests: EpisodeDigest[], o: HeuristicOptions = {}): SkillDraft[] {
  const replays = digests.map(replayEpisode);
  const successes = replays.filter((r) => r.digest.success);
  const failures = replays.filter((r) => !r.digest.success);
  const openedFinds = successes.filter((r) => r.foundAfterOpen);
  return [
    ...searchPriors(replays, o.minPriorEvidence ?? 2),
    ...hiddenTargetLesson(failures, openedFinds),
    ...repeatLesson(failures, successes),
    ...wrongStateLesson(failures),
    ...taskStrategies(successes),
    ...behindDoorsLesson(openedFinds),
  ];
}

/** Search priors: where each object type was first seen, counted once per episode. */
function searchPriors(replays: Replay[], minEvidence: number): SkillDraft[] {
  const seen = new Map<string, Map<string, Set<string>>>();
  for (const r of replays) {
    for (const [object, receptacle] of r.firstSeen) {
      const byPlace = seen.get(typeOf(object)) ?? new Map<string, Set<string>>();
      const eps = byPlace.get(typeOf(receptacle)) ?? new Set<string>();
      eps.add(r.digest.id);
      byPlace.set(typeOf(receptacle), eps);
      seen.set(typeOf(object), byPlace);
    }
  }
  const out: SkillDraft[] = [];
  for (const [object, byPlace] of [...seen.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const places = [...byPlace.entries()]
      .map(([place, eps]) => ({ place, n: eps.size, eps }))
      .sort((a, b) => b.n - a.n || a.place.localeCompare(b.place));
    const episodes = new Set(places.flatMap((p) => [...p.eps]));
    if (episodes.size < minEvidence) continue;
    const top = places.slice(0, 3);
    out.push({
      category: 'prior',
      taskType: null,
      title: `Where to find ${/^[aeiou]/.test(object) ? 'an' : 'a'} ${object}`,
      description: `Seen in ${episodes.size} episodes: ${top.map((p) => `${p.place} (${p.n})`).join(', ')}.`,
      content: `Search order for ${object}: ${top.map((p) => p.place).join(' > ')}`,
      sourceEpisodeIds: [...episodes].sort(),
    });
  }
  return out;
}

/** Lesson: the target was never seen while closed receptacles stayed closed. */
function hiddenTargetLesson(failures: Replay[], openedFinds: Replay[]): SkillDraft[] {
  const hidden = failures.filter((r) => !r.targetSeen && r.leftClosed.size > 0);
  if (hidden.length === 0) return [];
  const closedCount = hidden.reduce((n, r) => n + r.leftClosed.size, 0);
  return [
    {
      category: 'mistake',
      taskType: null,
      title: 'Open closed receptacles when the target is not in sight',
      description: `${hidden.length} failed episode(s) never saw the target while ${closedCount} closed receptacle(s) stayed closed${
        openedFinds.length > 0
          ? `; ${openedFinds.length} success(es) found the target by opening one`
          : ''
      }.`,
      content:
        'When the object you need is not visible, open closed receptacles (drawers, cabinets, fridge, safe, microwave) and look inside before moving on or giving up; a closed receptacle can also be the place to put things, so open it first.',
      sourceEpisodeIds: [...hidden, ...openedFinds].map((r) => r.digest.id),
    },
  ];
}

/** Lesson: retyping a command that did nothing. */
function repeatLesson(failures: Replay[], successes: Replay[]): SkillDraft[] {
  const repeaters = failures.filter((r) => r.failedRepeats >= 2);
  const rate = (rs: Replay[]) =>
    rs.length === 0 ? 0 : rs.reduce((n, r) => n + r.failedRepeats, 0) / rs.length;
  if (repeaters.length === 0 || rate(failures) <= rate(successes)) return [];
  return [
    {
      category: 'mistake',
      taskType: null,
      title: 'Do not repeat a command that did nothing',
      description: `${repeaters.length} failed episode(s) retyped commands after "Nothing happens." (${rate(failures).toFixed(1)} repeats per failure vs ${rate(successes).toFixed(1)} per success).`,
      content:
        'After "Nothing happens." the same command will fail again: do not retry it or commands of the same shape; read the feedback and try something else (another receptacle, another verb).',
      sourceEpisodeIds: repeaters.map((r) => r.digest.id),
    },
  ];
}

/** Lesson: placed the object without the state the goal asks for. */
function wrongStateLesson(failures: Replay[]): SkillDraft[] {
  const wrongState = failures.filter((r) => r.placedWithoutState);
  if (wrongState.length === 0) return [];
  const kinds = [...new Set(wrongState.map((r) => r.kind ?? ''))].filter(Boolean).sort();
  return [
    {
      category: 'mistake',
      taskType: null,
      title: "Check the object's state before placing it",
      description: `${wrongState.length} failed episode(s) (${kinds.join(', ')}) placed the object without making it ${kinds
        .map((k) => (k === 'heat' ? 'hot' : k))
        .join(' / ')}.`,
      content:
        'When the goal asks for a clean, hot or cool object, examine the held object before placing it and clean it with a sinkbasin, heat it with a microwave or cool it with a fridge first.',
      sourceEpisodeIds: wrongState.map((r) => r.digest.id),
    },
  ];
}

/** Strategies: the shortest successful plan per task type, with the evidence count. */
function taskStrategies(successes: Replay[]): SkillDraft[] {
  const byType = new Map<string, Replay[]>();
  for (const r of successes)
    byType.set(r.digest.taskType, [...(byType.get(r.digest.taskType) ?? []), r]);
  const out: SkillDraft[] = [];
  for (const [taskType, rs] of [...byType.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const best = [...rs].sort(
      (a, b) => a.digest.steps - b.digest.steps || a.digest.id.localeCompare(b.digest.id),
    )[0];
    if (!best) continue;
    const transform = best.kind ? STATE_WORD[best.kind] : undefined;
    const at = (prefix: string) => best.plan.findIndex((p) => p.startsWith(prefix));
    const transformedFirst =
      transform !== undefined && at(transform) >= 0 && at(transform) < at('move');
    out.push({
      category: 'task',
      taskType,
      title: `How ${taskType} tasks were solved`,
      description: `${rs.length} success(es), median ${median(rs.map((r) => r.digest.steps))} steps.`,
      content: `Plan that worked: ${best.plan.join(', then ')}.${
        transformedFirst
          ? ` The object was made ${transform === 'heat' ? 'hot' : transform} before placing it.`
          : ''
      }`,
      sourceEpisodeIds: rs.map((r) => r.digest.id),
    });
  }
  return out;
}

/** General: targets found behind doors across task types. */
function behindDoorsLesson(openedFinds: Replay[]): SkillDraft[] {
  const typesFoundByOpening = new Set(openedFinds.map((r) => r.digest.taskType));
  if (typesFoundByOpening.size < 2) return [];
  return [
    {
      category: 'general',
      taskType: null,
      title: 'Targets are often inside closed receptacles',
      description: `In ${openedFinds.length} successes over ${typesFoundByOpening.size} task types the target was first seen on opening a closed receptacle.`,
      content: 'While searching, open each closed receptacle you reach and read what is inside.',
      sourceEpisodeIds: openedFinds.map((r) => r.digest.id),
    },
  ];
}
