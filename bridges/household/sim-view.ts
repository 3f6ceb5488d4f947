// The household state view: the plain JSON hooks and designers read. Frozen and cached per entity,
// rebuilt only for the receptacle and object a command changed (hooks may read the view several
// times a step, and `go to`, the commonest command, changes neither). A read of one path (`at`: a
// rule's `unless` on `agent.holding`) outside receptacles and objects never builds them.
import { jsonAt } from '../core/helpers.ts';
import type { Json } from '../core/types.ts';
import type { Dialect, HouseholdStateView, SimObject, SimReceptacle, SimState } from './state.ts';
import type { HouseholdTask } from './tasks.ts';

export class SimView {
  /** The receptacle and object part of the view, frozen and shared until the world changes. */
  private world: Pick<HouseholdStateView, 'receptacles' | 'objects'> | undefined;
  /** Frozen per-entity views, rebuilt only for the receptacle and object a command changed. */
  private readonly recViews: (RecView | undefined)[] = [];
  private readonly objViews: (ObjView | undefined)[] = [];
  private taskView: HouseholdStateView['task'] | undefined;

  constructor(
    private readonly task: HouseholdTask,
    private readonly s: SimState,
    private readonly dialect: Dialect,
  ) {}

  view(): HouseholdStateView {
    const s = this.s;
    this.world ??= this.buildWorld();
    return {
      task: this.taskOf(),
      dialect: this.dialect,
      agent: this.agent(),
      receptacles: this.world.receptacles,
      objects: this.world.objects,
      steps: s.steps,
      invalidActions: s.invalidCount,
      won: s.won,
    };
  }

  /**
   * The value at a key path of view() (core/helpers.ts `jsonAt`). Only a path into `receptacles`
   * or `objects` builds the world: the rest of the view is a few fields.
   */
  at(path: readonly string[]): Json | undefined {
    const s = this.s;
    switch (path[0]) {
      case 'task':
        return jsonAt(this.taskOf() as unknown as Json, path.slice(1));
      case 'dialect':
        return jsonAt(this.dialect, path.slice(1));
      case 'agent':
        return jsonAt(this.agent(), path.slice(1));
      case 'steps':
        return jsonAt(s.steps, path.slice(1));
      case 'invalidActions':
        return jsonAt(s.invalidCount, path.slice(1));
      case 'won':
        return jsonAt(s.won, path.slice(1));
      case 'receptacles':
      case 'objects':
      case undefined:
        return jsonAt(this.view() as unknown as Json, path);
      default:
        return undefined; // the view has no other key
    }
  }

  private agent(): HouseholdStateView['agent'] {
    const s = this.s;
    return {
      location: s.recs[s.agentLoc]?.name ?? null,
      holding: s.objs[s.holding]?.name ?? null,
    };
  }

  private taskOf(): HouseholdStateView['task'] {
    const t = this.task;
    this.taskView ??= deepFreeze({
      id: t.id,
      split: t.split,
      type: t.type,
      goal: t.goal,
      objectType: t.objectType,
      receptacleType: t.receptacleType,
      toggleType: t.toggleType,
      room: t.room,
      layout: t.layout,
    });
    return this.taskView;
  }

  /** Marks a changed receptacle and/or object (-1: none) so the next view() rebuilds just those. */
  touch(rec: number, obj: number): void {
    this.world = undefined;
    if (rec >= 0) this.recViews[rec] = undefined;
    if (obj >= 0) this.objViews[obj] = undefined;
  }

  private buildWorld(): Pick<HouseholdStateView, 'receptacles' | 'objects'> {
    const s = this.s;
    const receptacles: RecView[] = new Array(s.recs.length);
    for (let i = 0; i < s.recs.length; i++) {
      receptacles[i] = this.recViews[i] ??= this.recView(s.recs[i] as SimReceptacle);
    }
    const objects: ObjView[] = new Array(s.objs.length);
    for (let i = 0; i < s.objs.length; i++) {
      objects[i] = this.objViews[i] ??= this.objView(s.objs[i] as SimObject);
    }
    return { receptacles: Object.freeze(receptacles), objects: Object.freeze(objects) } as Pick<
      HouseholdStateView,
      'receptacles' | 'objects'
    >;
  }

  private recView(r: SimReceptacle): RecView {
    const name = (i: number): string => (this.s.objs[i] as SimObject).name;
    const out: RecView = {
      name: r.name,
      type: r.type,
      openable: r.openable,
      contents: Object.freeze(r.contents.map(name)) as string[],
      nextTo: Object.freeze(r.nextTo.map(name)) as string[],
    };
    if (r.openable) out.open = r.open;
    return Object.freeze(out);
  }

  private objView(o: SimObject): ObjView {
    const out: ObjView = {
      name: o.name,
      type: o.type,
      location: o.loc < 0 ? null : (this.s.recs[o.loc] as SimReceptacle).name,
      held: o.loc < 0,
      pickable: o.pickable,
      clean: o.clean,
      hot: o.hot,
      cool: o.cool,
      sliced: o.sliced,
    };
    if (o.toggleable) out.on = o.on;
    return Object.freeze(out);
  }
}

type RecView = HouseholdStateView['receptacles'][number];
type ObjView = HouseholdStateView['objects'][number];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
