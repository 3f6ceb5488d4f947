// Room layouts and the task catalogue (train / eval_seen / eval_unseen), generated once,
// deterministically, from fixed keys. A task fixes the room layout and the (type, object, receptacle or
// lamp) triple; the episode seed only varies object placement and numbering (see scene.ts).
import {
  CLEANABLE,
  COOLABLE,
  canHold,
  DESKLAMP_HOSTS,
  FAMILY,
  FLOORLAMP_HOSTS,
  GOAL_TEMPLATES,
  goalValidIn,
  HEATABLE,
  ROOM_KINDS,
  ROOM_OBJECTS,
  ROOM_RECEPTACLES,
  type RoomKind,
  SPLIT_QUOTAS,
  stem,
  TASK_TYPES,
  type TaskType,
} from './data.ts';
import { rngFor } from './rng.ts';

export const SPLITS = ['train', 'eval_seen', 'eval_unseen'] as const;
export type Split = (typeof SPLITS)[number];

export interface LayoutReceptacle {
  name: string;
  type: string;
}

export interface LayoutLamp {
  name: string;
  type: 'DeskLamp' | 'FloorLamp';
  /** Index into `receptacles`: a desk lamp stands on it, a floor lamp next to it. */
  host: number;
}

export interface Layout {
  id: string;
  room: RoomKind;
  /** In the order the room description lists them. */
  receptacles: LayoutReceptacle[];
  /** Pickable object types that occur in this room. */
  objectTypes: string[];
  lamps: LayoutLamp[];
  /** Receptacle multiset, e.g. `Cabinet:6,CounterTop:2,…`: two layouts never share one. */
  signature: string;
}

export interface HouseholdTask {
  id: string;
  split: Split;
  type: TaskType;
  objectType: string;
  /** Target receptacle type; null for look_at_obj_in_light. */
  receptacleType: string | null;
  /** Lamp type; only for look_at_obj_in_light. */
  toggleType: string | null;
  layout: string;
  room: RoomKind;
  goal: string;
}

export const LAYOUTS_PER_ROOM = 30;
const ROOM_PREFIX: Record<RoomKind, string> = {
  Kitchen: 'kitchen',
  LivingRoom: 'livingroom',
  Bathroom: 'bathroom',
  Bedroom: 'bedroom',
};

/**
 * Layouts that never occur in train, like ALFWorld's unseen floor plans. eval_unseen draws only from
 * these; eval_seen and train only from the others.
 */
export const UNSEEN_LAYOUTS: ReadonlySet<string> = new Set([
  'kitchen-10',
  'kitchen-25',
  'livingroom-07',
  'livingroom-19',
  'bedroom-08',
  'bedroom-22',
  'bathroom-13',
  'bathroom-24',
]);

function buildLayout(room: RoomKind, index: number, salt: number): Layout {
  const id = `${ROOM_PREFIX[room]}-${String(index).padStart(2, '0')}`;
  const rng = rngFor(`household/layout/${id}/${salt}`);
  const counts: [string, number][] = [];
  for (const [type, [lo, hi]] of Object.entries(ROOM_RECEPTACLES[room])) {
    const n = rng.range(lo, hi);
    if (n > 0) counts.push([type, n]);
  }
  const signature = [...counts]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([t, n]) => `${t}:${n}`)
    .join(',');
  const receptacles: LayoutReceptacle[] = [];
  for (const [type, n] of rng.shuffle([...counts])) {
    for (let k = 1; k <= n; k++) receptacles.push({ name: `${stem(type)} ${k}`, type });
  }
  const present = new Set(receptacles.map((r) => r.type));
  const objectTypes = ROOM_OBJECTS[room].filter(
    (t) => rng.next() < 0.75 && [...present].some((r) => canHold(r, t)),
  );
  const lamps: LayoutLamp[] = [];
  if (room === 'LivingRoom' || room === 'Bedroom') {
    const hostsOf = (types: readonly string[]): number[] =>
      receptacles.flatMap((r, i) => (types.includes(r.type) ? [i] : []));
    const deskHosts = hostsOf(DESKLAMP_HOSTS);
    const floorHosts = hostsOf(FLOORLAMP_HOSTS);
    // Every such room has at least one lamp, so look_at_obj_in_light is always possible there.
    const mode = rng.int(3);
    if (mode !== 1 && deskHosts.length > 0) {
      lamps.push({ name: 'desklamp 1', type: 'DeskLamp', host: rng.pick(deskHosts) });
    }
    if ((mode !== 0 || lamps.length === 0) && floorHosts.length > 0) {
      lamps.push({ name: 'floorlamp 1', type: 'FloorLamp', host: rng.pick(floorHosts) });
    }
  }
  return { id, room, receptacles, objectTypes, lamps, signature };
}

function buildLayouts(): Map<string, Layout> {
  const layouts = new Map<string, Layout>();
  const signatures = new Set<string>();
  for (const room of ROOM_KINDS) {
    for (let i = 1; i <= LAYOUTS_PER_ROOM; i++) {
      // Re-draw on a signature clash so that "unseen layout" also means an unseen receptacle set.
      let salt = 0;
      let layout = buildLayout(room, i, salt);
      while (signatures.has(layout.signature)) layout = buildLayout(room, i, ++salt);
      signatures.add(layout.signature);
      layouts.set(layout.id, layout);
    }
  }
  return layouts;
}

interface Combo {
  layout: Layout;
  type: TaskType;
  objectType: string;
  receptacleType: string | null;
  toggleType: string | null;
}

/** The (type, object, receptacle|lamp) pairing, independent of the room. */
export function pairingKey(t: {
  type: string;
  objectType: string;
  receptacleType: string | null;
  toggleType: string | null;
}): string {
  return `${t.type}|${t.objectType}|${t.receptacleType ?? t.toggleType ?? ''}`;
}

const comboKey = (c: Combo): string => `${c.layout.id}|${pairingKey(c)}`;

function combosOf(layout: Layout): Combo[] {
  const out: Combo[] = [];
  const recTypes = [...new Set(layout.receptacles.map((r) => r.type))];
  const lampTypes = [...new Set(layout.lamps.map((l) => l.type))];
  for (const type of TASK_TYPES) {
    if (!goalValidIn(type, layout.room)) continue;
    for (const obj of layout.objectTypes) {
      if (type === 'look_at_obj_in_light') {
        for (const toggle of lampTypes) {
          out.push({ layout, type, objectType: obj, receptacleType: null, toggleType: toggle });
        }
        continue;
      }
      if (
        type === 'pick_clean_then_place_in_recep' &&
        (!CLEANABLE.has(obj) || !recTypes.includes('SinkBasin'))
      ) {
        continue;
      }
      if (
        type === 'pick_heat_then_place_in_recep' &&
        (!HEATABLE.has(obj) || !recTypes.includes('Microwave'))
      ) {
        continue;
      }
      if (
        type === 'pick_cool_then_place_in_recep' &&
        (!COOLABLE.has(obj) || !recTypes.includes('Fridge'))
      ) {
        continue;
      }
      for (const recep of recTypes) {
        if (!canHold(recep, obj)) continue;
        // The appliance that does the work is not also the destination (ALFWorld never asks for it).
        if (type === 'pick_clean_then_place_in_recep' && recep === 'SinkBasin') continue;
        if (type === 'pick_heat_then_place_in_recep' && recep === 'Microwave') continue;
        if (type === 'pick_cool_then_place_in_recep' && recep === 'Fridge') continue;
        // The target object must be able to start somewhere else, or the task starts solved.
        if (!recTypes.some((r) => r !== recep && canHold(r, obj))) continue;
        out.push({ layout, type, objectType: obj, receptacleType: recep, toggleType: null });
      }
    }
  }
  return out;
}

function goalText(c: Combo, template: number): string {
  const text = GOAL_TEMPLATES[c.type][template] ?? GOAL_TEMPLATES[c.type][0];
  return text
    .replace('{obj}', stem(c.objectType))
    .replace('{recep}', stem(c.receptacleType ?? ''))
    .replace('{toggle}', stem(c.toggleType ?? ''));
}

export interface Catalogue {
  layouts: Map<string, Layout>;
  tasks: HouseholdTask[];
  byId: Map<string, HouseholdTask>;
}

function sample(split: Split, pool: Combo[], taken: Set<string>): Combo[] {
  const chosen: Combo[] = [];
  for (const type of TASK_TYPES) {
    const quota = SPLIT_QUOTAS[split][type];
    const candidates = rngFor(`household/split/${split}/${type}`).shuffle(
      pool.filter((c) => c.type === type && !taken.has(comboKey(c))),
    );
    if (candidates.length < quota) {
      throw new Error(`household catalogue: only ${candidates.length} ${type} tasks for ${split}`);
    }
    chosen.push(...candidates.slice(0, quota));
  }
  return chosen;
}

function toTasks(split: Split, combos: Combo[]): HouseholdTask[] {
  const rng = rngFor(`household/ids/${split}`);
  const width = combos.length >= 1000 ? 4 : 3;
  return rng.shuffle([...combos]).map((c, i) => ({
    id: `${split}-${String(i + 1).padStart(width, '0')}`,
    split,
    type: c.type,
    objectType: c.objectType,
    receptacleType: c.receptacleType,
    toggleType: c.toggleType,
    layout: c.layout.id,
    room: c.layout.room,
    goal: goalText(c, rng.int(2)),
  }));
}

/** Builds the catalogue from scratch (getCatalogue() caches it). */
export function buildCatalogue(): Catalogue {
  const layouts = buildLayouts();
  const seenCombos: Combo[] = [];
  const unseenCombos: Combo[] = [];
  for (const layout of layouts.values()) {
    (UNSEEN_LAYOUTS.has(layout.id) ? unseenCombos : seenCombos).push(...combosOf(layout));
  }
  const train = sample('train', seenCombos, new Set());
  const trainKeys = new Set(train.map(comboKey));
  const trainPairings = new Set(train.map(pairingKey));
  // eval_seen: rooms and pairings both known from train, but never the very same game.
  const evalSeen = sample(
    'eval_seen',
    seenCombos.filter((c) => trainPairings.has(pairingKey(c))),
    trainKeys,
  );
  const evalUnseen = sample('eval_unseen', unseenCombos, new Set());
  const tasks = [
    ...toTasks('train', train),
    ...toTasks('eval_seen', evalSeen),
    ...toTasks('eval_unseen', evalUnseen),
  ];
  return { layouts, tasks, byId: new Map(tasks.map((t) => [t.id, t])) };
}

let catalogue: Catalogue | undefined;

/** Built lazily on first use (a few ms) and then shared. */
export function getCatalogue(): Catalogue {
  catalogue ??= buildCatalogue();
  return catalogue;
}

export function getLayout(id: string): Layout {
  const layout = getCatalogue().layouts.get(id);
  if (!layout) throw new Error(`unknown household layout '${id}'`);
  return layout;
}

export function familyOf(type: TaskType): string {
  return FAMILY[type];
}
