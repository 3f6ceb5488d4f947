// Typed access to ALFWorld's affordance tables (data/affordances.json, MIT): which receptacle types
// hold which objects, which objects can be cleaned / heated / cooled / sliced / toggled, which task
// types occur in which room kind. The rooms themselves are ALFWorld's floor plans (tasks.ts).
import raw from './data/affordances.json' with { type: 'json' };

export const TASK_TYPES = [
  'pick_and_place_simple',
  'look_at_obj_in_light',
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const ROOM_KINDS = ['Kitchen', 'LivingRoom', 'Bathroom', 'Bedroom'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

/** Short family names used in papers (ReAct, EnvHarness tables). */
export const FAMILY: Record<TaskType, string> = {
  pick_and_place_simple: 'pick',
  look_at_obj_in_light: 'look',
  pick_clean_then_place_in_recep: 'clean',
  pick_heat_then_place_in_recep: 'heat',
  pick_cool_then_place_in_recep: 'cool',
  pick_two_obj_and_place: 'pick2',
};

/** ALFWorld's goal templates (alfworld/gen/goal_library), two per task type. */
export const GOAL_TEMPLATES: Record<TaskType, readonly [string, string]> = {
  pick_and_place_simple: ['put a {obj} in {recep}', 'put some {obj} on {recep}'],
  look_at_obj_in_light: ['look at {obj} under the {toggle}', 'examine the {obj} with the {toggle}'],
  pick_clean_then_place_in_recep: [
    'put a clean {obj} in {recep}',
    'clean some {obj} and put it in {recep}',
  ],
  pick_heat_then_place_in_recep: [
    'put a hot {obj} in {recep}',
    'heat some {obj} and put it in {recep}',
  ],
  pick_cool_then_place_in_recep: [
    'put a cool {obj} in {recep}',
    'cool some {obj} and put it in {recep}',
  ],
  pick_two_obj_and_place: ['put two {obj} in {recep}', 'find two {obj} and put them in {recep}'],
};

const valReceptacleObjects = raw.VAL_RECEPTACLE_OBJECTS as Record<string, string[]>;
const valActionObjects = raw.VAL_ACTION_OBJECTS as Record<string, string[]>;
const goalsValid = raw.GOALS_VALID as Record<string, string[]>;

const holdSets = new Map<string, Set<string>>(
  Object.entries(valReceptacleObjects).map(([r, objs]) => [r, new Set(objs)]),
);

/** ALFWorld VAL_RECEPTACLE_OBJECTS: may a receptacle of type `recep` hold an object of type `obj`? */
export function canHold(recep: string, obj: string): boolean {
  return holdSets.get(recep)?.has(obj) ?? false;
}

const actionSet = (key: string): ReadonlySet<string> => new Set(valActionObjects[key] ?? []);
export const CLEANABLE = actionSet('Cleanable');
export const HEATABLE = actionSet('Heatable');
export const COOLABLE = actionSet('Coolable');
export const SLICEABLE = actionSet('Sliceable');
/** ALFWorld's receptacle objects (isReceptacleObject): examine shows `This is a normal <o>. In it, …`. */
export const RECEPTACLE_OBJECTS: ReadonlySet<string> = new Set(raw.MOVABLE_RECEPTACLES as string[]);
/**
 * Receptacles that are furniture (ALFWorld's RECEPTACLES minus its MOVABLE_RECEPTACLES): the places
 * of a room. Movable receptacles (Mug, Bowl, Pan…) are plain objects here: nothing goes inside them.
 */
export const FIXED_RECEPTACLES: ReadonlySet<string> = new Set(
  (raw.RECEPTACLES as string[]).filter((r) => !RECEPTACLE_OBJECTS.has(r)),
);
export const TOGGLEABLE = actionSet('Toggleable');
/** Objects a slice command accepts as the blade (ALFWorld slices with a Knife or ButterKnife). */
export const SLICERS: ReadonlySet<string> = new Set(['Knife', 'ButterKnife']);

/**
 * Openable receptacle types: ALFRED's OPENABLE_CLASS_LIST (Fridge, Cabinet, Microwave, Drawer, Safe,
 * Box) restricted to the fixed receptacles we place (Box is a movable receptacle, used here only as an
 * object). These start closed, as in ALFWorld games.
 */
export const OPENABLE: ReadonlySet<string> = new Set([
  'Cabinet',
  'Drawer',
  'Fridge',
  'Microwave',
  'Safe',
]);

export function goalValidIn(type: TaskType, room: RoomKind): boolean {
  return goalsValid[type]?.includes(room) ?? false;
}

/** Where lamps stand: a desk lamp on one of these, a floor lamp next to one of these. */
export const DESKLAMP_HOSTS: readonly string[] = ['Desk', 'SideTable', 'Dresser', 'Shelf'];
export const FLOORLAMP_HOSTS: readonly string[] = [
  'Sofa',
  'ArmChair',
  'SideTable',
  'Bed',
  'Dresser',
];

/** ALFWorld's split sizes per task type (train 3,553; valid_seen 140; valid_unseen 134). */
export const SPLIT_QUOTAS: Record<
  'train' | 'eval_seen' | 'eval_unseen',
  Record<TaskType, number>
> = {
  train: {
    pick_and_place_simple: 790,
    look_at_obj_in_light: 308,
    pick_clean_then_place_in_recep: 650,
    pick_heat_then_place_in_recep: 459,
    pick_cool_then_place_in_recep: 533,
    pick_two_obj_and_place: 813,
  },
  eval_seen: {
    pick_and_place_simple: 35,
    look_at_obj_in_light: 13,
    pick_clean_then_place_in_recep: 27,
    pick_heat_then_place_in_recep: 16,
    pick_cool_then_place_in_recep: 25,
    pick_two_obj_and_place: 24,
  },
  eval_unseen: {
    pick_and_place_simple: 24,
    look_at_obj_in_light: 18,
    pick_clean_then_place_in_recep: 31,
    pick_heat_then_place_in_recep: 23,
    pick_cool_then_place_in_recep: 21,
    pick_two_obj_and_place: 17,
  },
};

/** Lower-case name stem of a type, as ALFWorld prints it: `AlarmClock` -> `alarmclock`. */
export function stem(type: string): string {
  return type.toLowerCase();
}
