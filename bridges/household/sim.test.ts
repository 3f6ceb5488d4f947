// Grammar and exact feedback strings on a hand-built room (testing/sim-room.ts); preconditions,
// admissible commands and goal conditions: sim-rules.test.ts.
import { describe, expect, it } from 'vitest';
import { article, HouseholdSim, helpText, joinList, NOTHING_HAPPENS } from './sim.ts';
import { room, run, sim, task } from './testing/sim-room.ts';

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
      // ALFWorld's PDDL: ToggleObject needs a toggleable object.
      NOTHING_HAPPENS,
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
        'put mug 1 on sinkbasin 1',
      ]),
    ).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a apple 2, a apple 1, a knife 1, and a mug 1.',
      'You pick up the mug 1 from the countertop 1.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      NOTHING_HAPPENS,
      'You put the mug 1 in/on the sinkbasin 1.',
      'You pick up the mug 1 from the sinkbasin 1.',
      // ALFWorld 0.2's admissible template is `put X in/on Y`; the others are not its grammar.
      NOTHING_HAPPENS,
      NOTHING_HAPPENS,
    ]);
    h.exec('put mug 1 in/on sinkbasin 1');
    h.exec('take mug 1 from sinkbasin 1');
    expect(h.admissible()).toContain('put mug 1 in/on sinkbasin 1');
    expect(h.admissible().some((c) => c.startsWith('move '))).toBe(false);
    expect(sim().exec('put mug 1 in/on countertop 1').invalid).toBe(true);
  });

  it('the put dialect’s lenient option also takes `put X in Y` and `put X on Y`', () => {
    const h = new HouseholdSim(
      task('pick_heat_then_place_in_recep', 'Mug', 'Cabinet'),
      room(),
      'put',
      true,
    );
    expect(
      run(h, [
        'go to countertop 1',
        'take mug 1 from countertop 1',
        'go to sinkbasin 1',
        'put mug 1 in sinkbasin 1',
        'take mug 1 from sinkbasin 1',
        'put mug 1 on sinkbasin 1',
      ]).slice(3),
    ).toEqual([
      'You put the mug 1 in/on the sinkbasin 1.',
      'You pick up the mug 1 from the sinkbasin 1.',
      'You put the mug 1 in/on the sinkbasin 1.',
    ]);
  });

  it('normalises case and spacing', () => {
    expect(sim().exec('  Go   To  Fridge 1 ').text).toBe(
      'You arrive at fridge 1. The fridge 1 is closed.',
    );
  });
});
