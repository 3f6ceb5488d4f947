// Room layouts and the task catalogue (train / eval_seen / eval_unseen), built once,
// deterministically. A layout is one of ALFWorld's 120 AI2-THOR floor plans (data/floorplans.json,
// MIT: its object and receptacle types, and its receptacle instances where ALFWorld lists them); a
// task fixes the floor plan and the (type, object, receptacle or lamp) triple; the episode seed
// only varies object placement and numbering (see scene.ts).
import catalogueData from './data/catalogue.json' with { type: 'json' };
import floorplans from './data/floorplans.json' with { type: 'json' };
import {
  CLEANABLE,
  COOLABLE,
  canHold,
  DESKLAMP_HOSTS,
  FAMILY,
  FIXED_RECEPTACLES,
  FLOORLAMP_HOSTS,
  GOAL_TEMPLATES,
  goalValidIn,
  HEATABLE,
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
  /** The AI2-THOR floor plan, e.g. `FloorPlan12`. */
  id: string;
  room: RoomKind;
  /** In the order the room description lists them. */
  receptacles: LayoutReceptacle[];
  /** Pickable object types that occur in this room. */
  objectTypes: string[];
  lamps: LayoutLamp[];
  /** Receptacle multiset, e.g. `Cabinet:6,CounterTop:2,…`. */
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
  /** The floor plan (`FloorPlan12`): the layout and the ALFRED scene it comes from. */
  layout: string;
  room: RoomKind;
  goal: string;
}

/**
 * ALFRED's valid_unseen floor plans (its dataset's `valid_unseen` split): eval_unseen uses only
 * these. Together with its test_unseen plans they never occur in train or eval_seen.
 */
export const VALID_UNSEEN_PLANS: readonly number[] = [10, 219, 308, 424];
export const TEST_UNSEEN_PLANS: readonly number[] = [9, 29, 215, 226, 315, 325, 404, 425];
export const UNSEEN_LAYOUTS: ReadonlySet<string> = new Set(
  VALID_UNSEEN_PLANS.map((n) => `FloorPlan${n}`),
);
const HELD_OUT: ReadonlySet<string> = new Set(
  [...VALID_UNSEEN_PLANS, ...TEST_UNSEEN_PLANS].map((n) => `FloorPlan${n}`),
);

/** ALFWorld's scene numbers (gen/constants.py): kitchens 1–30, living rooms 201–230, bedrooms 301–330, bathrooms 401–430. */
export function roomOfPlan(n: number): RoomKind {
  if (n >= 401) return 'Bathroom';
  if (n >= 301) return 'Bedroom';
  if (n >= 201) return 'LivingRoom';
  return 'Kitchen';
}

/**
 * Instances of a receptacle type that ALFWorld's -openable.json does not list: 4 stove burners
 * (an AI2-THOR stove), one of anything else. A type it lists keeps its count; a sink basin or a
 * bathtub basin counts as many as the Sinks / Bathtubs it lists (each holds one basin).
 */
export const UNLISTED_COUNT: Readonly<Record<string, number>> = { StoveBurner: 4 };
const BASIN_OF: Readonly<Record<string, string>> = { SinkBasin: 'Sink', BathtubBasin: 'Bathtub' };

interface FloorPlanData {
  objects: string[];
  receptacles: string[];
}

function buildLayout(id: string, plan: FloorPlanData): Layout {
  const n = Number(id.replace('FloorPlan', ''));
  const room = roomOfPlan(n);
  const listed = new Map<string, number>();
  for (const key of plan.receptacles) {
    const type = key.split('|')[0] ?? '';
    listed.set(type, (listed.get(type) ?? 0) + 1);
  }
  const types = new Set(plan.objects.filter((t) => FIXED_RECEPTACLES.has(t)));
  for (const t of listed.keys()) if (FIXED_RECEPTACLES.has(t)) types.add(t);
  const counts: [string, number][] = [...types].sort().map((type) => {
    const basin = BASIN_OF[type];
    const count = listed.get(type) ?? (basin ? listed.get(basin) : undefined);
    return [type, count ?? UNLISTED_COUNT[type] ?? 1];
  });
  const signature = counts.map(([t, k]) => `${t}:${k}`).join(',');
  const receptacles: LayoutReceptacle[] = [];
  for (const [type, k] of counts) {
    for (let i = 1; i <= k; i++) receptacles.push({ name: `${stem(type)} ${i}`, type });
  }
  const present = [...types];
  const objectTypes = [...new Set(plan.objects)]
    .filter(
      (t) =>
        !FIXED_RECEPTACLES.has(t) &&
        t !== 'DeskLamp' &&
        t !== 'FloorLamp' &&
        present.some((r) => canHold(r, t)),
    )
    .sort();
  const rng = rngFor(`household/floorplan/${id}`);
  const hostsOf = (hosts: readonly string[]): number[] =>
    receptacles.flatMap((r, i) => (hosts.includes(r.type) ? [i] : []));
  const lamps: LayoutLamp[] = [];
  if (plan.objects.includes('DeskLamp')) {
    const hosts = hostsOf(DESKLAMP_HOSTS);
    if (hosts.length > 0)
      lamps.push({ name: 'desklamp 1', type: 'DeskLamp', host: rng.pick(hosts) });
  }
  if (plan.objects.includes('FloorLamp')) {
    const hosts = hostsOf(FLOORLAMP_HOSTS);
    if (hosts.length > 0)
      lamps.push({ name: 'floorlamp 1', type: 'FloorLamp', host: rng.pick(hosts) });
  }
  return { id, room, receptacles, objectTypes, lamps, signature };
}

function buildLayouts(): Map<string, Layout> {
  const layouts = new Map<string, Layout>();
  const plans = floorplans.plans as Record<string, FloorPlanData>;
  for (const [id, plan] of Object.entries(plans)) layouts.set(id, buildLayout(id, plan));
  return layouts;
}

interface Combo {
  layout: Layout;
  type: TaskType;
  objectType: string;
  receptacleType: string | null;
  toggleType: string | null;
  /** pairingKey(this), computed once: the catalogue's draws compare tens of thousands of them. */
  pairing: string;
  /** `<floor plan>|<pairing>`: one game. */
  key: string;
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

function combo(
  layout: Layout,
  type: TaskType,
  objectType: string,
  receptacleType: string | null,
  toggleType: string | null,
): Combo {
  const pairing = pairingKey({ type, objectType, receptacleType, toggleType });
  return {
    layout,
    type,
    objectType,
    receptacleType,
    toggleType,
    pairing,
    key: `${layout.id}|${pairing}`,
  };
}

function combosOf(layout: Layout): Combo[] {
  const out: Combo[] = [];
  const recTypes = [...new Set(layout.receptacles.map((r) => r.type))];
  const lampTypes = [...new Set(layout.lamps.map((l) => l.type))];
  for (const type of TASK_TYPES) {
    if (!goalValidIn(type, layout.room)) continue;
    for (const obj of layout.objectTypes) {
      if (type === 'look_at_obj_in_light') {
        for (const toggle of lampTypes) {
          out.push(combo(layout, type, obj, null, toggle));
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
        out.push(combo(layout, type, obj, recep, null));
      }
    }
  }
  return out;
}

type Pairing = Pick<Combo, 'type' | 'objectType' | 'receptacleType' | 'toggleType'>;

function goalText(c: Pairing, template: number): string {
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

/**
 * A split's games per type, drawn without replacement from `pool` (minus `taken`). When a type has
 * fewer games than its quota, the drawn order is dealt again: a second trial of the same game, as
 * ALFRED has several trials (different object placements) of one task in one scene. Each trial is
 * its own task id, so its scene (seeded by the id) differs.
 */
function sample(split: Split, pool: Combo[], taken: ReadonlySet<string>): Combo[] {
  // The pool by type, in pool order: what filtering it per type gave, in one pass.
  const byType = new Map<TaskType, Combo[]>();
  for (const c of pool) {
    if (taken.has(c.key)) continue;
    const list = byType.get(c.type);
    if (list) list.push(c);
    else byType.set(c.type, [c]);
  }
  const chosen: Combo[] = [];
  for (const type of TASK_TYPES) {
    const quota = SPLIT_QUOTAS[split][type];
    const candidates = rngFor(`household/split/${split}/${type}`).shuffle(byType.get(type) ?? []);
    if (candidates.length === 0) {
      throw new Error(`household catalogue: no ${type} game for ${split}`);
    }
    for (let i = 0; i < quota; i++) chosen.push(candidates[i % candidates.length] as Combo);
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
    if (UNSEEN_LAYOUTS.has(layout.id)) unseenCombos.push(...combosOf(layout));
    else if (!HELD_OUT.has(layout.id)) seenCombos.push(...combosOf(layout));
  }
  const train = sample('train', seenCombos, new Set());
  const trainKeys = new Set(train.map((c) => c.key));
  const trainPairings = new Set(train.map((c) => c.pairing));
  // eval_seen: rooms and pairings both known from train, but never the very same game.
  const evalSeen = sample(
    'eval_seen',
    seenCombos.filter((c) => trainPairings.has(c.pairing)),
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

/**
 * One task as data/catalogue.json stores it, in id order per split: floor plan, type, object,
 * receptacle (or lamp, for look_at_obj_in_light) and which of the type's two goal templates.
 */
export type CatalogueRow = [
  layout: string,
  type: TaskType,
  objectType: string,
  target: string,
  template: number,
];

/** buildCatalogue()'s tasks as data/catalogue.json's rows (scripts/household-catalogue.ts writes them). */
export function catalogueRows(c: Catalogue): Record<Split, CatalogueRow[]> {
  const rows: Record<Split, CatalogueRow[]> = { train: [], eval_seen: [], eval_unseen: [] };
  for (const t of c.tasks) {
    const template = [0, 1].find((i) => goalText(t, i) === t.goal);
    if (template === undefined) throw new Error(`${t.id}: goal from no template`);
    rows[t.split].push([
      t.layout,
      t.type,
      t.objectType,
      t.receptacleType ?? t.toggleType ?? '',
      template,
    ]);
  }
  return rows;
}

/**
 * The catalogue from data/catalogue.json: what buildCatalogue() draws (tasks.test.ts checks they
 * are equal) without drawing it — ≈ 0.1–0.2 s of CPU at the start of every process that plays one
 * household task, for ids that must never change anyway.
 */
function loadCatalogue(): Catalogue {
  const layouts = buildLayouts();
  const data = catalogueData as unknown as Record<Split, CatalogueRow[]>;
  const tasks = SPLITS.flatMap((split) => {
    const rows = data[split];
    const width = rows.length >= 1000 ? 4 : 3;
    return rows.map(([layoutId, type, objectType, target, template], i): HouseholdTask => {
      const layout = layouts.get(layoutId);
      if (!layout) throw new Error(`household catalogue: unknown floor plan ${layoutId}`);
      const lamp = type === 'look_at_obj_in_light';
      const pairing = {
        type,
        objectType,
        receptacleType: lamp ? null : target,
        toggleType: lamp ? target : null,
      };
      return {
        id: `${split}-${String(i + 1).padStart(width, '0')}`,
        split,
        ...pairing,
        layout: layout.id,
        room: layout.room,
        goal: goalText(pairing, template),
      };
    });
  });
  return { layouts, tasks, byId: new Map(tasks.map((t) => [t.id, t])) };
}

let catalogue: Catalogue | undefined;

/** Loaded on first use and then shared. */
export function getCatalogue(): Catalogue {
  catalogue ??= loadCatalogue();
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
