// The task catalogue: split sizes, ALFWorld's per-type quotas, ALFWorld's floor plans and ALFRED's
// seen / unseen split of them, GOALS_VALID, goal templates and scene validity.
import { describe, expect, it } from 'vitest';
import {
  canHold,
  GOAL_TEMPLATES,
  goalValidIn,
  OPENABLE,
  SPLIT_QUOTAS,
  stem,
  TASK_TYPES,
} from './data.ts';
import { listHouseholdTasks } from './env.ts';
import { hashString } from './rng.ts';
import { buildScene } from './scene.ts';
import {
  buildCatalogue,
  getCatalogue,
  pairingKey,
  roomOfPlan,
  SPLITS,
  TEST_UNSEEN_PLANS,
  UNSEEN_LAYOUTS,
  VALID_UNSEEN_PLANS,
} from './tasks.ts';

const { tasks, layouts } = getCatalogue();
const ofSplit = (split: string) => tasks.filter((t) => t.split === split);

describe('splits', () => {
  it('has ALFWorld split sizes: train 3553, eval_seen 140, eval_unseen 134', () => {
    expect(ofSplit('train')).toHaveLength(3553);
    expect(ofSplit('eval_seen')).toHaveLength(140);
    expect(ofSplit('eval_unseen')).toHaveLength(134);
  });

  it('follows the per-type quotas', () => {
    for (const split of SPLITS) {
      for (const type of TASK_TYPES) {
        expect(ofSplit(split).filter((t) => t.type === type).length, `${split} ${type}`).toBe(
          SPLIT_QUOTAS[split][type],
        );
      }
    }
  });

  it('uses stable, unique ids of the form <split>-NNN[N]', () => {
    const ids = new Set(tasks.map((t) => t.id));
    expect(ids.size).toBe(tasks.length);
    for (const t of tasks) expect(t.id).toMatch(new RegExp(`^${t.split}-\\d{3,4}$`));
    expect(tasks.find((t) => t.id === 'train-0001')?.split).toBe('train');
    expect(tasks.find((t) => t.id === 'eval_unseen-134')?.split).toBe('eval_unseen');
  });

  it('eval_unseen uses only ALFRED’s valid_unseen floor plans, which never occur in train', () => {
    const unseen = new Set(VALID_UNSEEN_PLANS.map((n) => `FloorPlan${n}`));
    expect([...unseen].sort()).toEqual([...UNSEEN_LAYOUTS].sort());
    expect(new Set(ofSplit('eval_unseen').map((t) => t.layout))).toEqual(
      new Set(['FloorPlan10', 'FloorPlan219', 'FloorPlan308', 'FloorPlan424']),
    );
    const heldOut = new Set(
      [...VALID_UNSEEN_PLANS, ...TEST_UNSEEN_PLANS].map((n) => `FloorPlan${n}`),
    );
    for (const t of [...ofSplit('train'), ...ofSplit('eval_seen')])
      expect(heldOut.has(t.layout), `${t.id} in ${t.layout}`).toBe(false);
    // Every room kind is represented among the unseen rooms.
    expect(new Set(ofSplit('eval_unseen').map((t) => t.room)).size).toBe(4);
  });

  it('eval_seen rooms and pairings occur in train, but never the very same game', () => {
    const train = ofSplit('train');
    const trainLayouts = new Set(train.map((t) => t.layout));
    const trainPairings = new Set(train.map(pairingKey));
    const trainGames = new Set(train.map((t) => `${t.layout}|${pairingKey(t)}`));
    for (const t of ofSplit('eval_seen')) {
      expect(trainLayouts.has(t.layout), t.id).toBe(true);
      expect(trainPairings.has(pairingKey(t)), t.id).toBe(true);
      expect(trainGames.has(`${t.layout}|${pairingKey(t)}`), t.id).toBe(false);
    }
  });

  it('train games are distinct', () => {
    const games = ofSplit('train').map((t) => `${t.layout}|${pairingKey(t)}`);
    expect(new Set(games).size).toBe(games.length);
  });
});

describe('tasks', () => {
  it('respect GOALS_VALID per room kind', () => {
    for (const t of tasks)
      expect(goalValidIn(t.type, t.room), `${t.id} ${t.type} in ${t.room}`).toBe(true);
    expect(
      tasks.some((t) => t.type === 'pick_heat_then_place_in_recep' && t.room !== 'Kitchen'),
    ).toBe(false);
  });

  it('use ALFWorld goal templates with lower-case type names', () => {
    for (const t of tasks) {
      const [a, b] = GOAL_TEMPLATES[t.type].map((tpl) =>
        tpl
          .replace('{obj}', stem(t.objectType))
          .replace('{recep}', stem(t.receptacleType ?? ''))
          .replace('{toggle}', stem(t.toggleType ?? '')),
      );
      expect([a, b], t.id).toContain(t.goal);
    }
    // The appliance that does the work is never the destination.
    for (const t of tasks) {
      if (t.type === 'pick_heat_then_place_in_recep')
        expect(t.receptacleType).not.toBe('Microwave');
      if (t.type === 'pick_cool_then_place_in_recep') expect(t.receptacleType).not.toBe('Fridge');
      if (t.type === 'pick_clean_then_place_in_recep')
        expect(t.receptacleType).not.toBe('SinkBasin');
    }
  });

  it('pair only objects the receptacle can hold', () => {
    for (const t of tasks) {
      if (t.receptacleType) expect(canHold(t.receptacleType, t.objectType), t.id).toBe(true);
      else expect(t.toggleType).toMatch(/^(DeskLamp|FloorLamp)$/);
    }
  });

  it('catalogue is the same when rebuilt (no hidden randomness), and data/catalogue.json is it', () => {
    const digest = (list: typeof tasks) =>
      list.map((t) => `${t.id}:${t.layout}:${pairingKey(t)}:${t.goal}`).join('\n');
    const fresh = buildCatalogue();
    expect(digest(fresh.tasks)).toBe(digest(buildCatalogue().tasks));
    // getCatalogue() loads the file: after a change on purpose, `npx tsx scripts/household-catalogue.ts`.
    expect(tasks).toEqual(fresh.tasks);
    expect([...fresh.layouts.values()]).toEqual([...layouts.values()]);
  });
});

describe('stability (task ids are referenced by saved runs and harness specs)', () => {
  // If one of these changes, every stored task id points at a different game: bump on purpose only.
  it('pins the catalogue and one scene', () => {
    expect(getCatalogue().byId.get('train-0001')).toEqual({
      id: 'train-0001',
      split: 'train',
      type: 'pick_two_obj_and_place',
      objectType: 'Statue',
      receptacleType: 'SideTable',
      toggleType: null,
      layout: 'FloorPlan212',
      room: 'LivingRoom',
      goal: 'find two statue and put them in sidetable',
    });
    expect(getCatalogue().byId.get('eval_unseen-001')?.goal).toBe(
      'clean some potato and put it in fridge',
    );
    const digest = tasks.map((t) => `${t.id}:${t.layout}:${pairingKey(t)}:${t.goal}`).join('\n');
    expect(hashString(digest)).toBe(4100717170);
    expect(hashString(JSON.stringify(buildScene(tasks[0]!, 0)))).toBe(1747760851);
  });
});

describe('floor plans (ALFWorld gen/layouts, data/floorplans.json)', () => {
  it('are ALFWorld’s 120 scenes in four room kinds, each task recording its floor plan', () => {
    expect(layouts.size).toBe(120);
    const kinds = new Map<string, number>();
    for (const l of layouts.values()) kinds.set(l.room, (kinds.get(l.room) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({
      Kitchen: 30,
      LivingRoom: 30,
      Bedroom: 30,
      Bathroom: 30,
    });
    expect(roomOfPlan(12)).toBe('Kitchen');
    expect(roomOfPlan(219)).toBe('LivingRoom');
    expect(roomOfPlan(308)).toBe('Bedroom');
    expect(roomOfPlan(424)).toBe('Bathroom');
    const [info] = listHouseholdTasks({ text: 'train-0001' });
    expect(info?.meta).toMatchObject({ scene: 'FloorPlan212', layout: 'FloorPlan212' });
    for (const t of tasks) expect(t.layout).toMatch(/^FloorPlan\d+$/);
  });

  it('take receptacle instances from -openable.json, the rest from -objects.json by the stated rule', () => {
    // FloorPlan10: -openable.json lists 3 cabinets, 3 countertops, 3 drawers, a fridge, a garbage
    // can, a microwave, 3 shelves and a sink; -objects.json adds a coffee machine, a toaster and
    // stove burners (4 by the rule) and the sink's basin.
    expect(layouts.get('FloorPlan10')?.signature).toBe(
      'Cabinet:3,CoffeeMachine:1,CounterTop:3,Drawer:3,Fridge:1,GarbageCan:1,Microwave:1,Shelf:3,SinkBasin:1,StoveBurner:4,Toaster:1',
    );
    // Object types are the plan's own pickable ones: FloorPlan10 has eggs, no laptop.
    expect(layouts.get('FloorPlan10')?.objectTypes).toContain('Egg');
    expect(layouts.get('FloorPlan10')?.objectTypes).not.toContain('Laptop');
    // Lamps only where the plan has one.
    expect(layouts.get('FloorPlan308')?.lamps.map((l) => l.type)).toEqual(['DeskLamp']);
    expect(layouts.get('FloorPlan10')?.lamps).toEqual([]);
  });
});

describe('scenes', () => {
  // Every eval task and a stride of train tasks, each with two seeds.
  const sample = tasks.filter((t, i) => t.split !== 'train' || i % 11 === 0);

  it('place objects only where VAL_RECEPTACLE_OBJECTS allows, openables closed, nothing held', () => {
    for (const t of sample) {
      for (const seed of [0, 3]) {
        const s = buildScene(t, seed);
        expect(s.agentLoc).toBe(-1);
        expect(s.holding).toBe(-1);
        for (const r of s.recs) {
          expect(r.openable).toBe(OPENABLE.has(r.type));
          expect(r.open).toBe(false);
          for (const i of r.contents) {
            const o = s.objs[i]!;
            if (o.pickable)
              expect(canHold(r.type, o.type), `${t.id}: ${o.name} in ${r.name}`).toBe(true);
            else expect(o.type).toBe('DeskLamp');
          }
        }
      }
    }
  });

  it('never start solved: no target already in a goal receptacle, lamps off, enough targets', () => {
    for (const t of sample) {
      const s = buildScene(t, 0);
      const targets = s.objs.filter((o) => o.type === t.objectType);
      expect(targets.length, t.id).toBeGreaterThanOrEqual(
        t.type === 'pick_two_obj_and_place' ? 2 : 1,
      );
      if (t.receptacleType) {
        for (const o of targets) expect(s.recs[o.loc]!.type, t.id).not.toBe(t.receptacleType);
      } else {
        expect(
          s.objs.some((o) => o.type === t.toggleType && !o.on),
          t.id,
        ).toBe(true);
      }
    }
  });

  it('are deterministic per (task, seed) and vary with the seed', () => {
    const t = tasks[0]!;
    expect(buildScene(t, 5)).toEqual(buildScene(t, 5));
    const layouts = new Set(
      [0, 1, 2, 3, 4].map((seed) => JSON.stringify(buildScene(t, seed).objs)),
    );
    expect(layouts.size).toBeGreaterThan(1);
    // The receptacles (the room layout) stay fixed across seeds.
    expect(buildScene(t, 0).recs.map((r) => r.name)).toEqual(
      buildScene(t, 9).recs.map((r) => r.name),
    );
  });

  it('names objects <type> <n> with numbers from 1 per type', () => {
    const s = buildScene(tasks[1]!, 0);
    const perType = new Map<string, number[]>();
    for (const o of s.objs) {
      const m = /^([a-z]+) (\d+)$/.exec(o.name);
      expect(m, o.name).not.toBeNull();
      expect(m![1]).toBe(stem(o.type));
      perType.set(o.type, [...(perType.get(o.type) ?? []), Number(m![2])]);
    }
    for (const nums of perType.values()) {
      expect(nums.sort((a, b) => a - b)).toEqual(nums.map((_, i) => i + 1));
    }
  });
});
