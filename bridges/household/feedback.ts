// ALFWorld's fixed feedback texts and listing order: the strings agents and prompts are tuned on.
import type { Dialect, SimReceptacle } from './state.ts';

export const NOTHING_HAPPENS = 'Nothing happens.';
export const WELCOME = '-= Welcome to TextWorld, ALFRED! =-';

/**
 * ALFWorld prints every indefinite article as `a` ("a apple 1", "a egg 2"): its game files set each
 * entity's `indefinite` to "a". Kept so, since agents and prompts are tuned on that text.
 */
export function article(_name: string): string {
  return 'a';
}

/** ALFWorld's `help` feedback (alfred.twl2), with the placing line of the active dialect. */
export function helpText(dialect: Dialect): string {
  const place =
    dialect === 'move'
      ? '  move (object) to (receptacle):  place an object in or on a receptacle\n'
      : '  put (object) in/on (receptacle): put an object in or on a receptacle\n';
  return (
    '\nAvailable commands:\n' +
    '  look:                             look around your current location\n' +
    '  inventory:                        check your current inventory\n' +
    '  go to (receptacle):               move to a receptacle\n' +
    '  open (receptacle):                open a receptacle\n' +
    '  close (receptacle):               close a receptacle\n' +
    '  take (object) from (receptacle):  take an object from a receptacle\n' +
    place +
    '  examine (something):              examine a receptacle or an object\n' +
    '  use (object):                     use an object\n' +
    '  heat (object) with (receptacle):  heat an object using a receptacle\n' +
    '  clean (object) with (receptacle): clean an object using a receptacle\n' +
    '  cool (object) with (receptacle):  cool an object using a receptacle\n' +
    '  slice (object) with (object):     slice an object using a sharp object\n'
  );
}

/** ALFWorld's list join: `a x`, `a x, and a y`, `a x, a y, and a z`; empty -> `nothing`. */
export function joinList(items: readonly string[]): string {
  if (items.length === 0) return 'nothing';
  if (items.length === 1) return items[0] as string;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

export const HELP_MOVE = helpText('move');
export const HELP_PUT = helpText('put');

interface SortKey {
  stem: string;
  num: number;
}

export function sortKey(name: string): SortKey {
  const space = name.lastIndexOf(' ');
  return { stem: name.slice(0, space), num: Number(name.slice(space + 1)) };
}

/** ALFWorld lists entities by type name, and within a type from the highest number down. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (a.stem !== b.stem) return a.stem < b.stem ? -1 : 1;
  return b.num - a.num;
}

export interface ReceptacleTexts {
  goCmds: { cmd: string; index: number }[];
  roomText: string;
  names: Map<string, Entity>;
}

/**
 * Everything derived from the receptacle list alone. A layout's receptacles are the same in every
 * episode, so this is computed once per distinct list (keyed by the names, which define it).
 */
const receptacleCache = new Map<string, ReceptacleTexts>();

export function receptacleTexts(recs: readonly SimReceptacle[]): ReceptacleTexts {
  const key = recs.map((r) => r.name).join('|');
  const hit = receptacleCache.get(key);
  if (hit) return hit;
  const names = new Map<string, Entity>();
  recs.forEach((r, index) => {
    names.set(r.name, { kind: 'r', index });
  });
  const goCmds = recs
    .map((r, index) => ({ cmd: `go to ${r.name}`, index }))
    .sort((a, b) => (a.cmd < b.cmd ? -1 : a.cmd > b.cmd ? 1 : 0));
  const listed = recs
    .map((r) => ({ ...sortKey(r.name), name: r.name }))
    .sort(compareKeys)
    .map((r) => `${article(r.name)} ${r.name}`);
  const roomText = `You are in the middle of a room. Looking quickly around you, you see ${joinList(listed)}.`;
  const texts = { goCmds, roomText, names };
  // Bounded: 120 layouts in the catalogue; snapshots could bring others, so cap the memory.
  if (receptacleCache.size > 1000) receptacleCache.clear();
  receptacleCache.set(key, texts);
  return texts;
}

/** What a name in a command refers to: a receptacle or an object, by index. */
export type Entity = { kind: 'r'; index: number } | { kind: 'o'; index: number };
