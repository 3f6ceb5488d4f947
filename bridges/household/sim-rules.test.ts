// Preconditions, admissible commands and goal conditions on the hand-built room (testing/sim-room.ts).
import { describe, expect, it } from 'vitest';
import { NOTHING_HAPPENS } from './sim.ts';
import { run, sim, task } from './testing/sim-room.ts';

describe('preconditions', () => {
  const cases: [string, string[], string][] = [
    ['unknown verb', [], 'jump'],
    ['empty command', [], ''],
    ['go to the current place', ['go to fridge 1'], 'go to fridge 1'],
    ['go to an unknown receptacle', [], 'go to fridge 9'],
    ['go to an object', [], 'go to mug 1'],
    ['open from afar', [], 'open fridge 1'],
    ['open something not openable', ['go to countertop 1'], 'open countertop 1'],
    ['open twice', ['go to fridge 1', 'open fridge 1'], 'open fridge 1'],
    ['close a closed one', ['go to fridge 1'], 'close fridge 1'],
    ['take from afar', [], 'take mug 1 from countertop 1'],
    ['take from a closed receptacle', ['go to cabinet 2'], 'take mug 2 from cabinet 2'],
    [
      'take with full hands',
      ['go to countertop 1', 'take mug 1 from countertop 1'],
      'take knife 1 from countertop 1',
    ],
    ['take from the wrong receptacle', ['go to countertop 1'], 'take egg 1 from countertop 1'],
    ['take a lamp', ['go to sidetable 1'], 'take desklamp 1 from sidetable 1'],
    ['move what is not held', ['go to countertop 1'], 'move mug 1 to countertop 1'],
    [
      'move where the type does not fit',
      ['go to countertop 1', 'take mug 1 from countertop 1', 'go to drawer 1', 'open drawer 1'],
      'move mug 1 to drawer 1',
    ],
    [
      'move somewhere else',
      ['go to countertop 1', 'take mug 1 from countertop 1'],
      'move mug 1 to sinkbasin 1',
    ],
    [
      'heat away from the microwave',
      ['go to countertop 1', 'take mug 1 from countertop 1'],
      'heat mug 1 with microwave 1',
    ],
    [
      'heat with the wrong appliance',
      ['go to countertop 1', 'take mug 1 from countertop 1', 'go to fridge 1'],
      'heat mug 1 with fridge 1',
    ],
    ['heat what is not held', ['go to microwave 1'], 'heat mug 1 with microwave 1'],
    [
      'heat what cannot be heated',
      ['go to countertop 1', 'take knife 1 from countertop 1', 'go to microwave 1'],
      'heat knife 1 with microwave 1',
    ],
    [
      'clean what cannot be cleaned',
      ['go to sidetable 1', 'take book 1 from sidetable 1', 'go to sinkbasin 1'],
      'clean book 1 with sinkbasin 1',
    ],
    ['use a lamp elsewhere', ['go to countertop 1'], 'use desklamp 1'],
    ['slice without a knife', ['go to countertop 1'], 'slice apple 1 with knife 1'],
    [
      'slice what is not sliceable',
      ['go to countertop 1', 'take knife 1 from countertop 1'],
      'slice mug 1 with knife 1',
    ],
    ['examine a receptacle from afar', [], 'examine fridge 1'],
    ['examine an object out of sight', ['go to cabinet 2'], 'examine mug 2'],
    ['move in the put dialect names', [], 'put mug 1 in/on countertop 1'],
  ];
  for (const [name, setup, command] of cases) {
    it(`Nothing happens: ${name}`, () => {
      const h = sim();
      for (const c of setup) expect(h.exec(c).invalid, c).toBe(false);
      const before = JSON.stringify(h.s);
      const r = h.exec(command);
      expect(r).toEqual({ text: NOTHING_HAPPENS, invalid: true });
      expect(JSON.stringify(h.s)).toBe(before);
      expect(h.admissible()).not.toContain(command);
    });
  }
});

describe('admissible commands (sorted, as TextWorld lists them)', () => {
  it('at the start: every go to, help, inventory and look', () => {
    expect(sim().admissible()).toEqual([
      'go to cabinet 1',
      'go to cabinet 2',
      'go to countertop 1',
      'go to drawer 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sidetable 1',
      'go to sinkbasin 1',
      'help',
      'inventory',
      'look',
    ]);
  });

  it('holding a mug at the open microwave', () => {
    const h = sim();
    run(h, [
      'go to countertop 1',
      'take mug 1 from countertop 1',
      'go to microwave 1',
      'open microwave 1',
    ]);
    expect(h.admissible()).toEqual([
      'close microwave 1',
      'examine microwave 1',
      'examine mug 1',
      'go to cabinet 1',
      'go to cabinet 2',
      'go to countertop 1',
      'go to drawer 1',
      'go to fridge 1',
      'go to sidetable 1',
      'go to sinkbasin 1',
      'heat mug 1 with microwave 1',
      'help',
      'inventory',
      'look',
      'move mug 1 to microwave 1',
    ]);
  });

  it('empty-handed at a table with lamps', () => {
    const h = sim();
    h.exec('go to sidetable 1');
    expect(h.admissible().filter((c) => !c.startsWith('go to '))).toEqual([
      'examine sidetable 1',
      'help',
      'inventory',
      'look',
      'take book 1 from sidetable 1',
      'use desklamp 1',
      'use floorlamp 1',
    ]);
  });

  it('holding a knife next to sliceable food', () => {
    const h = sim();
    run(h, ['go to countertop 1', 'take knife 1 from countertop 1']);
    expect(h.admissible()).toContain('slice apple 1 with knife 1');
    expect(h.admissible()).toContain('slice apple 2 with knife 1');
    expect(h.admissible()).not.toContain('slice mug 1 with knife 1');
  });
});

describe('goal conditions', () => {
  it('heat: a cold mug in the cabinet is not enough, a hot one is', () => {
    const h = sim();
    run(h, [
      'go to countertop 1',
      'take mug 1 from countertop 1',
      'go to cabinet 1',
      'open cabinet 1',
      'move mug 1 to cabinet 1',
    ]);
    expect(h.goalSatisfied()).toBe(false);
    expect(h.subgoals()).toEqual([true, false, false]);
    run(h, ['take mug 1 from cabinet 1', 'go to microwave 1', 'heat mug 1 with microwave 1']);
    expect(h.subgoals()).toEqual([true, true, false]);
    run(h, ['go to cabinet 1', 'move mug 1 to cabinet 1']);
    expect(h.goalSatisfied()).toBe(true);
  });

  it('pick two: both in the same receptacle of the type', () => {
    const h = sim(task('pick_two_obj_and_place', 'Mug', 'Cabinet'));
    run(h, [
      'go to countertop 1',
      'take mug 1 from countertop 1',
      'go to cabinet 1',
      'open cabinet 1',
      'move mug 1 to cabinet 1',
    ]);
    // mug 2 already lies in cabinet 2: one each in two cabinets does not count.
    expect(h.goalSatisfied()).toBe(false);
    expect(h.subgoals()).toEqual([true, true, false]);
    run(h, [
      'go to cabinet 2',
      'open cabinet 2',
      'take mug 2 from cabinet 2',
      'go to cabinet 1',
      'move mug 2 to cabinet 1',
    ]);
    expect(h.goalSatisfied()).toBe(true);
  });

  it('look: the lamp of the type must be on where the agent holds the object', () => {
    const h = sim(task('look_at_obj_in_light', 'Mug', null, 'DeskLamp'));
    run(h, [
      'go to sidetable 1',
      'use desklamp 1',
      'go to countertop 1',
      'take mug 1 from countertop 1',
    ]);
    expect(h.goalSatisfied()).toBe(false);
    expect(h.subgoals()).toEqual([true, true, false]);
    h.exec('go to sidetable 1');
    expect(h.goalSatisfied()).toBe(true);
    // A floor lamp is not the desk lamp the goal names.
    const f = sim(task('look_at_obj_in_light', 'Mug', null, 'DeskLamp'));
    run(f, [
      'go to countertop 1',
      'take mug 1 from countertop 1',
      'go to sidetable 1',
      'use floorlamp 1',
    ]);
    expect(f.goalSatisfied()).toBe(false);
    f.exec('use desklamp 1');
    expect(f.goalSatisfied()).toBe(true);
  });

  it('clean and cool require the treatment', () => {
    const c = sim(task('pick_clean_then_place_in_recep', 'Apple', 'CounterTop'));
    run(c, [
      'go to countertop 1',
      'take apple 1 from countertop 1',
      'move apple 1 to countertop 1',
    ]);
    expect(c.goalSatisfied()).toBe(false);
    run(c, [
      'take apple 1 from countertop 1',
      'go to sinkbasin 1',
      'clean apple 1 with sinkbasin 1',
      'go to countertop 1',
      'move apple 1 to countertop 1',
    ]);
    expect(c.goalSatisfied()).toBe(true);
    const k = sim(task('pick_cool_then_place_in_recep', 'Egg', 'CounterTop'));
    run(k, [
      'go to fridge 1',
      'open fridge 1',
      'take egg 1 from fridge 1',
      'cool egg 1 with fridge 1',
      'go to countertop 1',
      'move egg 1 to countertop 1',
    ]);
    expect(k.goalSatisfied()).toBe(true);
  });
});
