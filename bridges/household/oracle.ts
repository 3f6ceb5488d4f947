// Oracle planner: from the full state view (getEnvState()), a command list that solves the task.
// It reads privileged state (every object's location), so it is a test and baseline tool, not an agent.
import { canHold } from './data.ts';
import type { HouseholdStateView } from './state.ts';

type ObjectView = HouseholdStateView['objects'][number];

const APPLIANCE: Record<string, { verb: string; type: string; done: (o: ObjectView) => boolean }> =
  {
    pick_clean_then_place_in_recep: { verb: 'clean', type: 'SinkBasin', done: (o) => o.clean },
    pick_heat_then_place_in_recep: { verb: 'heat', type: 'Microwave', done: (o) => o.hot },
    pick_cool_then_place_in_recep: { verb: 'cool', type: 'Fridge', done: (o) => o.cool },
  };

export class OracleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OracleError';
  }
}

/** Commands that reach the goal from `view` (empty when already won). Throws OracleError if stuck. */
export function oraclePlan(view: HouseholdStateView): string[] {
  const plan: string[] = [];
  if (view.won) return plan;
  const task = view.task;
  const recType = new Map(view.receptacles.map((r) => [r.name, r.type]));
  const isOpen = new Map(
    view.receptacles.filter((r) => r.openable).map((r) => [r.name, r.open === true]),
  );
  const objects = new Map(view.objects.map((o) => [o.name, { ...o }]));
  let at = view.agent.location;
  let holding = view.agent.holding;

  const goTo = (r: string): void => {
    if (at !== r) plan.push(`go to ${r}`);
    at = r;
  };
  const openHere = (r: string): void => {
    if (isOpen.get(r) === false) {
      plan.push(`open ${r}`);
      isOpen.set(r, true);
    }
  };
  const get = (name: string): ObjectView => {
    const o = objects.get(name);
    if (!o) throw new OracleError(`no object ${name}`);
    return o;
  };
  const place = (name: string, r: string): void => {
    goTo(r);
    openHere(r);
    plan.push(view.dialect === 'move' ? `move ${name} to ${r}` : `put ${name} in/on ${r}`);
    const o = get(name);
    o.location = r;
    o.held = false;
    holding = null;
  };
  const freeHands = (): void => {
    if (!holding) return;
    const o = get(holding);
    const here = at && canHold(recType.get(at) ?? '', o.type) ? at : undefined;
    const dest = here ?? view.receptacles.find((r) => canHold(r.type, o.type))?.name;
    if (!dest) throw new OracleError(`nowhere to put ${o.name}`);
    place(o.name, dest);
  };
  const take = (name: string): void => {
    if (holding === name) return;
    freeHands();
    const o = get(name);
    if (!o.location) throw new OracleError(`${name} has no location`);
    goTo(o.location);
    openHere(o.location);
    plan.push(`take ${name} from ${o.location}`);
    o.location = null;
    o.held = true;
    holding = name;
  };

  if (task.type === 'look_at_obj_in_light') {
    const lamp = view.objects.find((o) => o.type === task.toggleType);
    if (!lamp?.location) throw new OracleError(`no ${task.toggleType} in the room`);
    const target =
      view.objects.find((o) => o.name === holding && o.type === task.objectType) ??
      view.objects.find((o) => o.type === task.objectType && o.pickable);
    if (!target) throw new OracleError(`no ${task.objectType} in the room`);
    take(target.name);
    goTo(lamp.location);
    if (!lamp.on) plan.push(`use ${lamp.name}`);
    return plan;
  }

  const appliance = APPLIANCE[task.type];
  const fits = (o: ObjectView): boolean =>
    o.type === task.objectType && (!appliance || appliance.done(o));
  const goals = view.receptacles.filter((r) => r.type === task.receptacleType);
  if (goals.length === 0) throw new OracleError(`no ${task.receptacleType} in the room`);
  const placedIn = (r: (typeof goals)[number]): number =>
    r.contents.filter((n) => fits(get(n))).length;
  const goal = goals.reduce((best, r) => (placedIn(r) > placedIn(best) ? r : best));
  const need = (task.type === 'pick_two_obj_and_place' ? 2 : 1) - placedIn(goal);
  const candidates = view.objects
    .filter((o) => o.type === task.objectType && !(o.location === goal.name && fits(o)))
    .sort((a, b) => Number(b.name === holding) - Number(a.name === holding));
  if (candidates.length < need) throw new OracleError(`not enough ${task.objectType}`);
  for (const candidate of candidates.slice(0, Math.max(0, need))) {
    take(candidate.name);
    const o = get(candidate.name);
    if (appliance && !appliance.done(o)) {
      const station = view.receptacles.find((r) => r.type === appliance.type);
      if (!station) throw new OracleError(`no ${appliance.type} in the room`);
      goTo(station.name);
      plan.push(`${appliance.verb} ${o.name} with ${station.name}`);
    }
    place(o.name, goal.name);
  }
  return plan;
}
