// Grammar, exact feedback strings, preconditions and goal conditions on a hand-built room.
import { describe, expect, it } from 'vitest';
import type { TaskType } from './data.ts';
import { article, HouseholdSim, helpText, joinList, NOTHING_HAPPENS } from './sim.ts';
import type { Dialect, SimObject, SimReceptacle, SimState } from './state.ts';
import type { HouseholdTask } from './tasks.ts';

function rec(name: string, type: string, openable = false): SimReceptacle {
  return { name, type, openable, open: false, contents: [], nextTo: [] };
}

function obj(name: string, type: string, loc: number, extra: Partial<SimObject> = {}): SimObject {
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
function room(): SimState {
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

function task(
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

function sim(
  t: HouseholdTask = task('pick_heat_then_place_in_recep', 'Mug', 'Cabinet'),
  dialect: Dialect = 'move',
) {
  return new HouseholdSim(t, room(), dialect);
}

/** Runs commands, returning each feedback text; fails the test on an unexpected invalid. */
function run(h: HouseholdSim, commands: string[]): string[] {
  return commands.map((c) => h.exec(c).text);
}

describe('text helpers', () => {
  it('joins lists the ALFWorld way', () => {
    expect(joinList([])).toBe('nothing');
    expect(joinList(['a mug 1'])).toBe('a mug 1');
    expect(joinList(['a mug 1', 'a apple 1'])).toBe('a mug 1, and a apple 1');
    expect(joinList(['a x 1', 'a y 1', 'a z 1'])).toBe('a x 1, a y 1, and a z 1');
  });
  it('uses "a" for every name, as ALFWorld prints it ("a apple 1")', () => {
    expect(article('apple 1')).toBe('a');
    expect(article('mug 1')).toBe('a');
  });
  it('help lists the commands of the dialect', () => {
    expect(helpText('move')).toContain(
      '\n  move (object) to (receptacle):  place an object in or on a receptacle\n',
    );
    expect(helpText('put')).toContain(
      '\n  put (object) in/on (receptacle): put an object in or on a receptacle\n',
    );
    expect(helpText('move').startsWith('\nAvailable commands:\n  look:')).toBe(true);
    expect(sim().exec('help')).toEqual({ text: helpText('move'), invalid: false });
  });
});

describe('feedback strings', () => {
  it('welcome text: the room listed by type, numbers from high to low, then the goal', () => {
    expect(sim().welcomeText()).toBe(
      '-= Welcome to TextWorld, ALFRED! =-\n\n' +
        'You are in the middle of a room. Looking quickly around you, you see a cabinet 2, a cabinet 1, ' +
        'a countertop 1, a drawer 1, a fridge 1, a microwave 1, a sidetable 1, and a sinkbasin 1.' +
        '\n\nYour task is to: put a hot mug in cabinet.',
    );
  });

  it('go to, open, close, take, move, inventory', () => {
    const h = sim();
    expect(
      run(h, [
        'go to countertop 1',
        'take mug 1 from countertop 1',
        'inventory',
        'go to cabinet 1',
        'move mug 1 to cabinet 1',
        'open cabinet 1',
        'move mug 1 to cabinet 1',
        'close cabinet 1',
        'inventory',
      ]),
    ).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You pick up the mug 1 from the countertop 1.',
      'You are carrying: a mug 1.',
      'You arrive at cabinet 1. The cabinet 1 is closed.',
      NOTHING_HAPPENS,
      'You open the cabinet 1. The cabinet 1 is open. In it, you see nothing.',
      'You move the mug 1 to the cabinet 1.',
      'You close the cabinet 1.',
      'You are not carrying anything.',
    ]);
  });

  it('open shows the contents; going to an open receptacle too; lists stay sorted after a move', () => {
    const h = sim();
    expect(
      run(h, [
        'go to cabinet 2',
        'open cabinet 2',
        'go to countertop 1',
        'go to cabinet 2',
        'take mug 2 from cabinet 2',
        'go to countertop 1',
        'move mug 2 to countertop 1',
      ]),
    ).toEqual([
      'You arrive at cabinet 2. The cabinet 2 is closed.',
      'You open the cabinet 2. The cabinet 2 is open. In it, you see a mug 2.',
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You arrive at cabinet 2. The cabinet 2 is open. In it, you see a mug 2.',
      'You pick up the mug 2 from the cabinet 2.',
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You move the mug 2 to the countertop 1.',
    ]);
    expect(h.exec('examine countertop 1').text).toBe(
      'On the countertop 1, you see a apple 2, a apple 1, a knife 1, a mug 2, and a mug 1.',
    );
  });

  it('heat, clean, cool, slice and the object state text (alfred.twl2 rules)', () => {
    const h = sim();
    expect(
      run(h, [
        'go to countertop 1',
        'take apple 1 from countertop 1',
        'examine apple 1',
        'go to microwave 1',
        'heat apple 1 with microwave 1',
        'examine apple 1',
        'go to sinkbasin 1',
        'clean apple 1 with sinkbasin 1',
        'examine apple 1',
        'go to fridge 1',
        'cool apple 1 with fridge 1',
        'examine apple 1',
        'go to countertop 1',
        'move apple 1 to countertop 1',
        'take knife 1 from countertop 1',
        'slice apple 1 with knife 1',
        'slice apple 1 with knife 1',
        'examine apple 1',
        'slice apple 2 with knife 1',
        'examine apple 2',
        'examine mug 1',
      ]),
    ).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You pick up the apple 1 from the countertop 1.',
      "There's nothing special about apple 1.",
      'You arrive at microwave 1. The microwave 1 is closed.',
      'You heat the apple 1 using the microwave 1.',
      'This is a hot apple 1.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      'You clean the apple 1 using the sinkbasin 1.',
      'This is a hot and clean apple 1.',
      'You arrive at fridge 1. The fridge 1 is closed.',
      'You cool the apple 1 using the fridge 1.',
      'This is a cool and clean apple 1.',
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a knife 1, and a mug 1.',
      'You move the apple 1 to the countertop 1.',
      'You pick up the knife 1 from the countertop 1.',
      'You sliced the apple 1 with the knife 1.',
      'You sliced the apple 1 with the knife 1.',
      'This is a cool and clean sliced apple 1.',
      'You sliced the apple 2 with the knife 1.',
      'This is a sliced apple 2.',
      // Mugs are ALFWorld receptacle objects: examine describes their (empty) inside.
      'This is a normal mug 1. In it, you see nothing.',
    ]);
    const cold = sim();
    run(cold, [
      'go to fridge 1',
      'open fridge 1',
      'take egg 1 from fridge 1',
      'cool egg 1 with fridge 1',
    ]);
    expect(cold.exec('examine egg 1').text).toBe('This is a cold egg 1.');
  });

  it('lamps: use (always "turn on", as ALFWorld), examine, look next to a receptacle, no switch', () => {
    const h = sim();
    expect(
      run(h, [
        'look',
        'go to sidetable 1',
        'look',
        'examine desklamp 1',
        'use desklamp 1',
        'examine desklamp 1',
        'use desklamp 1',
        'examine desklamp 1',
        'use floorlamp 1',
        'use book 1',
        'examine sidetable 1',
      ]),
    ).toEqual([
      'You are in the middle of a room. Looking quickly around you, you see a cabinet 2, a cabinet 1, ' +
        'a countertop 1, a drawer 1, a fridge 1, a microwave 1, a sidetable 1, and a sinkbasin 1.',
      'You arrive at sidetable 1. On the sidetable 1, you see a book 1, and a desklamp 1.',
      'You are facing the sidetable 1. Next to it, you see a floorlamp 1.',
      'This desklamp 1 is off.',
      'You turn on the desklamp 1.',
      'This desklamp 1 is on.',
      'You turn on the desklamp 1.',
      'This desklamp 1 is on.',
      'You turn on the floorlamp 1.',
      "You don't see any switch on the book 1.",
      'On the sidetable 1, you see a book 1, and a desklamp 1.',
    ]);
    expect(h.exec('use book 1').invalid).toBe(true);
    expect(h.exec('take desklamp 1 from sidetable 1').text).toBe(NOTHING_HAPPENS);
  });

  it('the put dialect', () => {
    const h = sim(undefined, 'put');
    expect(
      run(h, [
        'go to countertop 1',
        'take mug 1 from countertop 1',
        'go to sinkbasin 1',
        'move mug 1 to sinkbasin 1',
        'put mug 1 in/on sinkbasin 1',
        'take mug 1 from sinkbasin 1',
        'put mug 1 in sinkbasin 1',
        'take mug 1 from sinkbasin 1',
        'put mug 1 on sinkbasin 1',
      ]),
    ).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You pick up the mug 1 from the countertop 1.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      NOTHING_HAPPENS,
      'You put the mug 1 in/on the sinkbasin 1.',
      'You pick up the mug 1 from the sinkbasin 1.',
      'You put the mug 1 in/on the sinkbasin 1.',
      'You pick up the mug 1 from the sinkbasin 1.',
      'You put the mug 1 in/on the sinkbasin 1.',
    ]);
    h.exec('take mug 1 from sinkbasin 1');
    expect(h.admissible()).toContain('put mug 1 in/on sinkbasin 1');
    expect(h.admissible().some((c) => c.startsWith('move '))).toBe(false);
    expect(sim().exec('put mug 1 in/on countertop 1').invalid).toBe(true);
  });

  it('normalises case and spacing', () => {
    expect(sim().exec('  Go   To  Fridge 1 ').text).toBe(
      'You arrive at fridge 1. The fridge 1 is closed.',
    );
  });
});

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
