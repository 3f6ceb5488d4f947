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
  if (view.won) return [];
  const planner = new Planner(view);
  if (view.task.type === 'look_at_obj_in_light') planner.lookInLight();
  else planner.placeTargets();
  return planner.plan;
}

/** The plan so far and the world as it will be once the plan has run. */
class Planner {
  readonly plan: string[] = [];
  private readonly recType: Map<string, string>;
  private readonly isOpen: Map<string, boolean>;
  private readonly objects: Map<string, ObjectView>;
  private at: string | null;
  private holding: string | null;

  constructor(private readonly view: HouseholdStateView) {
    this.recType = new Map(view.receptacles.map((r) => [r.name, r.type]));
    this.isOpen = new Map(
      view.receptacles.filter((r) => r.openable).map((r) => [r.name, r.open === true]),
    );
    this.objects = new Map(view.objects.map((o) => [o.name, { ...o }]));
    this.at = view.agent.location;
    this.holding = view.agent.holding;
  }

  private goTo(r: string): void {
    if (this.at !== r) this.plan.push(`go to ${r}`);
    this.at = r;
  }

  private openHere(r: string): void {
    if (this.isOpen.get(r) === false) {
      this.plan.push(`open ${r}`);
      this.isOpen.set(r, true);
    }
  }

  private get(name: string): ObjectView {
    const o = this.objects.get(name);
    if (!o) throw new OracleError(`no object ${name}`);
    return o;
  }

  private place(name: string, r: string): void {
    this.goTo(r);
    this.openHere(r);
    this.plan.push(
      this.view.dialect === 'move' ? `move ${name} to ${r}` : `put ${name} in/on ${r}`,
    );
    const o = this.get(name);
    o.location = r;
    o.held = false;
    this.holding = null;
  }

  private freeHands(): void {
    if (!this.holding) return;
    const o = this.get(this.holding);
    const at = this.at;
    const here = at && canHold(this.recType.get(at) ?? '', o.type) ? at : undefined;
    const dest = here ?? this.view.receptacles.find((r) => canHold(r.type, o.type))?.name;
    if (!dest) throw new OracleError(`nowhere to put ${o.name}`);
    this.place(o.name, dest);
  }

  private take(name: string): void {
    if (this.holding === name) return;
    this.freeHands();
    const o = this.get(name);
    if (!o.location) throw new OracleError(`${name} has no location`);
    this.goTo(o.location);
    this.openHere(o.location);
    this.plan.push(`take ${name} from ${o.location}`);
    o.location = null;
    o.held = true;
    this.holding = name;
  }

  /** look_at_obj_in_light: take the object to the lamp and switch it on. */
  lookInLight(): void {
    const { task, objects } = this.view;
    const lamp = objects.find((o) => o.type === task.toggleType);
    if (!lamp?.location) throw new OracleError(`no ${task.toggleType} in the room`);
    const target =
      objects.find((o) => o.name === this.holding && o.type === task.objectType) ??
      objects.find((o) => o.type === task.objectType && o.pickable);
    if (!target) throw new OracleError(`no ${task.objectType} in the room`);
    this.take(target.name);
    this.goTo(lamp.location);
    if (!lamp.on) this.plan.push(`use ${lamp.name}`);
  }

  /** The placing tasks: enough qualifying objects (cleaned, heated or cooled first) in one goal receptacle. */
  placeTargets(): void {
    const task = this.view.task;
    const appliance = APPLIANCE[task.type];
    const fits = (o: ObjectView): boolean =>
      o.type === task.objectType && (!appliance || appliance.done(o));
    const goals = this.view.receptacles.filter((r) => r.type === task.receptacleType);
    if (goals.length === 0) throw new OracleError(`no ${task.receptacleType} in the room`);
    const placedIn = (r: (typeof goals)[number]): number =>
      r.contents.filter((n) => fits(this.get(n))).length;
    const goal = goals.reduce((best, r) => (placedIn(r) > placedIn(best) ? r : best));
    const need = (task.type === 'pick_two_obj_and_place' ? 2 : 1) - placedIn(goal);
    const candidates = this.view.objects
      .filter((o) => o.type === task.objectType && !(o.location === goal.name && fits(o)))
      .sort((a, b) => Number(b.name === this.holding) - Number(a.name === this.holding));
    if (candidates.length < need) throw new OracleError(`not enough ${task.objectType}`);
    for (const candidate of candidates.slice(0, Math.max(0, need))) {
      this.take(candidate.name);
      const o = this.get(candidate.name);
      if (appliance && !appliance.done(o)) {
        const station = this.view.receptacles.find((r) => r.type === appliance.type);
        if (!station) throw new OracleError(`no ${appliance.type} in the room`);
        this.goTo(station.name);
        this.plan.push(`${appliance.verb} ${o.name} with ${station.name}`);
      }
      this.place(o.name, goal.name);
    }
  }
}
