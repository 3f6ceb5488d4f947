// Belief B_t: task-relevant facts inferred from interaction, as a generic key-value store. Bridges
// provide extractors that turn an observation into facts; the household extractor reads ALFWorld
// text (room listing, "On the X, you see …", "You pick up …", "You clean …", …).
import type { Action, Json, StepInfo } from '../../../bridges/core/types.ts';
import {
  parseList,
  parseObjectState,
  parseReceptacleView,
  parseRoom,
  typeOf,
} from '../household/observation.ts';

/** A fact: `key` names what it is about (`loc:mug 1`, `recep:drawer 2`, `at`, `holding`). */
export type Facts = Map<string, string>;

export interface BeliefChange {
  key: string;
  before: string | null;
  after: string | null;
}

export class BeliefStore {
  readonly facts: Facts = new Map();

  set(key: string, value: string | null, changes: BeliefChange[]): void {
    const before = this.facts.get(key) ?? null;
    if (before === value) return;
    if (value === null) this.facts.delete(key);
    else this.facts.set(key, value);
    changes.push({ key, before, after: value });
  }

  clear(changes: BeliefChange[]): void {
    for (const key of [...this.facts.keys()]) this.set(key, null, changes);
  }

  toJson(): Record<string, string> {
    return Object.fromEntries([...this.facts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

export interface ExtractInput {
  text: string;
  info: StepInfo;
  /** The environment action that produced the text (undefined for the first observation). */
  action?: Action;
  /** The text the action typed, for text tools. */
  command?: string;
}

export interface BeliefExtractor {
  /** Updates the store from one observation; returns the changes. */
  update(store: BeliefStore, input: ExtractInput): BeliefChange[];
  /** Answers `track[query]`: the facts about an object (name or type); `world` gives all. */
  track(store: BeliefStore, query: string): string;
  /** A short rendering for the prompt. */
  render(store: BeliefStore): string;
  /** Where a type of object is believed to be, best first (for drivers of scripted policies). */
  locate?(store: BeliefStore, objectType: string): { object: string; receptacle: string }[];
}

const extractors = new Map<string, BeliefExtractor>();

export function registerBeliefExtractor(bridge: string, extractor: BeliefExtractor): void {
  extractors.set(bridge, extractor);
}

/** Bridges without an extractor still get a belief store: the agent fills it through note/commit only. */
export const genericExtractor: BeliefExtractor = {
  update: () => [],
  track(store, query) {
    const q = query.trim().toLowerCase();
    const rows = [...store.facts.entries()].filter(
      ([k, v]) => q === 'world' || k.includes(q) || v.toLowerCase().includes(q),
    );
    return rows.length === 0
      ? `No belief about ${q}.`
      : rows.map(([k, v]) => `${k}: ${v}`).join('\n');
  },
  render(store) {
    return [...store.facts.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  },
};

export function beliefExtractorFor(bridge: string): BeliefExtractor {
  return extractors.get(bridge) ?? genericExtractor;
}

// ---- household ------------------------------------------------------------------------------

function stateWords(s: { hot: boolean; cool: boolean; clean: boolean }): string {
  const w = [s.clean ? 'clean' : '', s.hot ? 'hot' : '', s.cool ? 'cool' : ''].filter(Boolean);
  return w.length > 0 ? w.join(' ') : 'plain';
}

function objectsIn(store: BeliefStore, receptacle: string): string[] {
  const out: string[] = [];
  for (const [k, v] of store.facts)
    if (k.startsWith('loc:') && v === receptacle) out.push(k.slice(4));
  return out.sort();
}

function addState(store: BeliefStore, object: string, word: string, changes: BeliefChange[]): void {
  const now = new Set((store.facts.get(`state:${object}`) ?? '').split(' ').filter(Boolean));
  now.delete('plain');
  if (word === 'hot') now.delete('cool');
  if (word === 'cool') now.delete('hot');
  now.add(word);
  store.set(`state:${object}`, [...now].sort().join(' '), changes);
}

export const householdExtractor: BeliefExtractor = {
  update(store, { text, command }) {
    const changes: BeliefChange[] = [];
    const goal = /your task is to:\s*(.+)/i.exec(text)?.[1]?.trim();
    if (goal && store.facts.get('goal') !== goal) {
      // A different room (a new episode or another leg of a chain) invalidates what was seen.
      const room = parseRoom(text);
      const known = store.facts.get('room');
      if (room && known !== room.join(', ')) store.clear(changes);
      store.set('goal', goal, changes);
    }
    const room = parseRoom(text);
    if (room && room.length > 0) store.set('room', room.join(', '), changes);

    const arrived = /you arrive at (?:the )?([a-z]+ \d+)/i.exec(text)?.[1]?.toLowerCase();
    if (arrived) store.set('at', arrived, changes);
    const here = store.facts.get('at');
    const view = parseReceptacleView(text, arrived ?? undefined);
    if (view) {
      store.set(`recep:${view.receptacle}`, view.state, changes);
      if (view.state !== 'closed') {
        // What the receptacle shows now replaces what we believed was in it.
        for (const o of objectsIn(store, view.receptacle)) {
          if (!view.contents.includes(o)) store.set(`loc:${o}`, null, changes);
        }
        for (const o of view.contents) store.set(`loc:${o}`, view.receptacle, changes);
      }
    }
    const nextTo = /next to it, you see (.+?)\.\s*$/im.exec(text)?.[1];
    if (nextTo && here) for (const o of parseList(nextTo)) store.set(`loc:${o}`, here, changes);

    const took = /you pick up the ([a-z]+ \d+) from the ([a-z]+ \d+)/i.exec(text);
    if (took?.[1]) {
      store.set(`loc:${took[1]}`, 'held', changes);
      store.set('holding', took[1], changes);
    }
    const put = /you (?:move|put) the ([a-z]+ \d+) (?:to|in|on|in\/on) the ([a-z]+ \d+)/i.exec(
      text,
    );
    if (put?.[1] && put[2]) {
      store.set(`loc:${put[1]}`, put[2], changes);
      store.set('holding', null, changes);
    }
    const changed = /you (clean|heat|cool) the ([a-z]+ \d+) using/i.exec(text);
    if (changed?.[1] && changed[2]) {
      const word = changed[1] === 'clean' ? 'clean' : changed[1] === 'heat' ? 'hot' : 'cool';
      addState(store, changed[2], word, changes);
    }
    const sliced = /you sliced? the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (sliced) addState(store, sliced, 'sliced', changes);
    const examined = /this is an? .+? ([a-z]+ \d+)\./i.exec(text)?.[1];
    if (examined) store.set(`state:${examined}`, stateWords(parseObjectState(text)), changes);
    const plain = /there's nothing special about ([a-z]+ \d+)/i.exec(text)?.[1];
    if (plain) store.set(`state:${plain}`, 'plain', changes);
    const on = /you turn on the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (on) store.set(`state:${on}`, 'on', changes);
    const off = /you turn off the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (off) store.set(`state:${off}`, 'off', changes);
    const opened = /you open the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (opened) store.set(`recep:${opened}`, 'open', changes);
    const closed = /you close the ([a-z]+ \d+)/i.exec(text)?.[1];
    if (closed) store.set(`recep:${closed}`, 'closed', changes);
    if (/you are not carrying anything/i.test(text)) store.set('holding', null, changes);
    const carrying = /you are carrying:\s*\[?(.*?)\]?\.?\s*$/im.exec(text)?.[1];
    if (carrying !== undefined && !/not carrying/i.test(text)) {
      const held = parseList(carrying)[0];
      if (held) {
        store.set('holding', held, changes);
        store.set(`loc:${held}`, 'held', changes);
      }
    }
    if (command && /^nothing happens\.?$/i.test(text.trim())) {
      store.set('last_failed', command, changes);
    }
    return changes;
  },

  track(store, query) {
    const q = query.trim().toLowerCase();
    if (q === 'world') return householdExtractor.render(store) || 'Nothing known yet.';
    // Locations in ALFWorld's own examine wording, so a text-reading agent absorbs them as it would
    // the receptacle's feedback.
    const matches = householdExtractor.locate?.(store, q.replace(/\s+/g, '')) ?? [];
    const exact = store.facts.get(`loc:${q}`);
    if (exact) matches.unshift({ object: q, receptacle: exact });
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const m of matches) {
      if (seen.has(m.receptacle)) continue;
      seen.add(m.receptacle);
      if (m.receptacle === 'held') lines.push(`You are carrying: [${article(m.object)}].`);
      else lines.push(examineText(store, m.receptacle));
    }
    const state = store.facts.get(`state:${q}`);
    if (state) lines.push(`The ${q} is ${state}.`);
    const recep = store.facts.get(`recep:${q}`);
    if (recep) {
      lines.push(
        recep === 'closed'
          ? `The ${q} was closed when last seen (contents unknown).`
          : examineText(store, q),
      );
    }
    if (lines.length > 0) return lines.join('\n');
    const unexplored = unexploredReceptacles(store);
    return `No ${q} seen yet.${unexplored.length > 0 ? ` Not yet explored: ${unexplored.join(', ')}.` : ''}`;
  },

  render(store) {
    const lines: string[] = [];
    const at = store.facts.get('at');
    const holding = store.facts.get('holding');
    lines.push(`You are at: ${at ?? 'the middle of the room'}. Holding: ${holding ?? 'nothing'}.`);
    const receptacles = [...store.facts.entries()]
      .filter(([k]) => k.startsWith('recep:'))
      .map(([k, v]) => ({ r: k.slice(6), v }));
    for (const { r, v } of receptacles) {
      const inside = objectsIn(store, r);
      const what = v === 'closed' ? 'closed' : inside.length > 0 ? inside.join(', ') : 'empty';
      lines.push(`- ${r}: ${what}`);
    }
    const states = [...store.facts.entries()].filter(([k]) => k.startsWith('state:'));
    if (states.length > 0)
      lines.push(`States: ${states.map(([k, v]) => `${k.slice(6)} ${v}`).join('; ')}.`);
    const unexplored = unexploredReceptacles(store);
    if (unexplored.length > 0) lines.push(`Not yet explored: ${unexplored.join(', ')}.`);
    return lines.join('\n');
  },

  locate(store, objectType) {
    const out: { object: string; receptacle: string }[] = [];
    for (const [k, v] of store.facts) {
      if (!k.startsWith('loc:')) continue;
      const object = k.slice(4);
      if (typeOf(object) === objectType) out.push({ object, receptacle: v });
    }
    return out.sort((a, b) => a.object.localeCompare(b.object));
  },
};

function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

function examineText(store: BeliefStore, receptacle: string): string {
  const inside = objectsIn(store, receptacle).map(article);
  const list =
    inside.length === 0
      ? 'nothing'
      : inside.length === 1
        ? (inside[0] ?? '')
        : `${inside.slice(0, -1).join(', ')}, and ${inside[inside.length - 1]}`;
  return store.facts.get(`recep:${receptacle}`) === 'open'
    ? `The ${receptacle} is open. In it, you see ${list}.`
    : `On the ${receptacle}, you see ${list}.`;
}

function unexploredReceptacles(store: BeliefStore): string[] {
  const room = store.facts.get('room');
  if (!room) return [];
  return room.split(', ').filter((r) => {
    const v = store.facts.get(`recep:${r}`);
    return v === undefined || v === 'closed';
  });
}

registerBeliefExtractor('household', householdExtractor);

export function beliefJson(store: BeliefStore): Json {
  return store.toJson();
}
