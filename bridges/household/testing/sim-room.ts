// A hand-built room for the simulator tests (sim.test.ts, sim-rules.test.ts): 8 receptacles, 9
// objects, and helpers to run commands on it.
import type { TaskType } from '../data.ts';
import { HouseholdSim } from '../sim.ts';
import type { Dialect, SimObject, SimReceptacle, SimState } from '../state.ts';
import type { HouseholdTask } from '../tasks.ts';

export function rec(name: string, type: string, openable = false): SimReceptacle {
  return { name, type, openable, open: false, contents: [], nextTo: [] };
}

export function obj(
  name: string,
  type: string,
  loc: number,
  extra: Partial<SimObject> = {},
): SimObject {
  return {
    name,
    type,
    loc,
    floor: false,
    pickable: true,
    toggleable: false,
    clean: false,
    hot: false,
    cool: false,
    sliced: false,
    on: false,
    ...extra,
  };
}

// 0 countertop 1, 1 cabinet 1, 2 cabinet 2, 3 fridge 1, 4 microwave 1, 5 sinkbasin 1, 6 sidetable 1, 7 drawer 1
export function room(): SimState {
  const recs = [
    rec('countertop 1', 'CounterTop'),
    rec('cabinet 1', 'Cabinet', true),
    rec('cabinet 2', 'Cabinet', true),
    rec('fridge 1', 'Fridge', true),
    rec('microwave 1', 'Microwave', true),
    rec('sinkbasin 1', 'SinkBasin'),
    rec('sidetable 1', 'SideTable'),
    rec('drawer 1', 'Drawer', true),
  ];
  const objs = [
    obj('mug 1', 'Mug', 0),
    obj('knife 1', 'Knife', 0),
    obj('apple 1', 'Apple', 0),
    obj('egg 1', 'Egg', 3),
    obj('book 1', 'Book', 6),
    obj('desklamp 1', 'DeskLamp', 6, { pickable: false, toggleable: true }),
    obj('floorlamp 1', 'FloorLamp', 6, { pickable: false, toggleable: true, floor: true }),
    obj('mug 2', 'Mug', 2),
    obj('apple 2', 'Apple', 0),
  ];
  objs.forEach((o, i) => {
    const r = recs[o.loc] as SimReceptacle;
    (o.floor ? r.nextTo : r.contents).push(i);
  });
  return {
    recs,
    objs,
    agentLoc: -1,
    holding: -1,
    steps: 0,
    invalidCount: 0,
    won: false,
    heldTarget: false,
    lastObs: '',
  };
}

export function task(
  type: TaskType,
  objectType: string,
  receptacleType: string | null,
  toggleType: string | null = null,
): HouseholdTask {
  return {
    id: 'test-1',
    split: 'train',
    type,
    objectType,
    receptacleType,
    toggleType,
    layout: 'kitchen-01',
    room: 'Kitchen',
    goal: 'put a hot mug in cabinet',
  };
}

export function sim(
  t: HouseholdTask = task('pick_heat_then_place_in_recep', 'Mug', 'Cabinet'),
  dialect: Dialect = 'move',
) {
  return new HouseholdSim(t, room(), dialect);
}

/** Runs commands, returning each feedback text; fails the test on an unexpected invalid. */
export function run(h: HouseholdSim, commands: string[]): string[] {
  return commands.map((c) => h.exec(c).text);
}
