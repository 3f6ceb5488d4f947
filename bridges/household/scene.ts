// One episode's starting world, from (task, seed): the layout fixes the receptacles and lamps, the seed
// draws how many objects of each type there are, where they lie and how they are numbered.
import { canHold, OPENABLE, stem } from './data.ts';
import { rngFor } from './rng.ts';
import type { SimObject, SimReceptacle, SimState } from './state.ts';
import { getLayout, type HouseholdTask } from './tasks.ts';

export function buildScene(task: HouseholdTask, seed: number): SimState {
  const layout = getLayout(task.layout);
  const rng = rngFor(`household/scene/${task.id}/${seed}`);
  const recs: SimReceptacle[] = layout.receptacles.map((r) => ({
    name: r.name,
    type: r.type,
    openable: OPENABLE.has(r.type),
    open: false,
    contents: [],
    nextTo: [],
  }));
  const objs: SimObject[] = [];
  const place = (o: SimObject, host: number, floor: boolean): void => {
    const index = objs.length;
    objs.push(o);
    const rec = recs[host] as SimReceptacle;
    (floor ? rec.nextTo : rec.contents).push(index);
  };

  // Lamps are fixed furniture of the layout: not pickable, off at the start.
  for (const lamp of layout.lamps) {
    const floor = lamp.type === 'FloorLamp';
    const o = newObject(lamp.name, lamp.type, lamp.host, false);
    o.toggleable = true;
    o.on = false;
    o.floor = floor;
    place(o, lamp.host, floor);
  }

  const placesTask = task.type !== 'look_at_obj_in_light';
  const instances: string[] = [];
  for (const type of layout.objectTypes) {
    let n = 1 + rng.int(3);
    if (type === task.objectType) n = Math.max(n, task.type === 'pick_two_obj_and_place' ? 2 : 1);
    for (let k = 0; k < n; k++) instances.push(type);
  }
  rng.shuffle(instances);
  const numbers = new Map<string, number>();
  for (const type of instances) {
    const hosts: number[] = [];
    recs.forEach((r, i) => {
      if (!canHold(r.type, type)) return;
      // A target never starts in a receptacle of the goal type: the task must not start solved.
      if (placesTask && type === task.objectType && r.type === task.receptacleType) return;
      hosts.push(i);
    });
    if (hosts.length === 0) continue;
    const k = (numbers.get(type) ?? 0) + 1;
    numbers.set(type, k);
    const host = rng.pick(hosts);
    place(newObject(`${stem(type)} ${k}`, type, host, true), host, false);
  }
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

function newObject(name: string, type: string, loc: number, pickable: boolean): SimObject {
  return {
    name,
    type,
    loc,
    floor: false,
    pickable,
    toggleable: false,
    clean: false,
    hot: false,
    cool: false,
    sliced: false,
    on: false,
  };
}
