import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import { checkDiagnosis } from '../../diagnosis-check.ts';
import { batch, type Turn } from '../../testing/episodes.ts';
import type { Batch, DiagnosisReport } from '../../types.ts';
import { heuristicDiagnosis as diagnoseOnly } from './diagnose.ts';
import { householdDesign } from './household.ts';

const cleanMug: TaskInfo = {
  id: 't',
  type: 'pick_clean_then_place_in_recep',
  goal: 'put a clean mug in coffeemachine',
  split: 'eval_seen',
  meta: { objectType: 'Mug', receptacleType: 'CoffeeMachine' },
};
const twoBottles: TaskInfo = {
  id: 'train-0001',
  type: 'pick_two_obj_and_place',
  goal: 'find two glassbottle and put them in cabinet',
  split: 'train',
  meta: { objectType: 'GlassBottle', receptacleType: 'Cabinet' },
};
const band = { band: [0.4, 0.6] as [number, number] };

/** Every diagnosis these tests make must pass the checker as it is, with nothing to remove. */
function heuristicDiagnosis(...args: Parameters<typeof diagnoseOnly>): DiagnosisReport {
  const d = diagnoseOnly(...args);
  expect(checkDiagnosis(d, (args[0] as Batch).episodes)).toEqual([]);
  return d;
}

describe('heuristic diagnosis (trajectories only)', () => {
  it('knows no bridge: without its design module, household patterns are not named', () => {
    const t: Turn[] = [
      ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
      ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'],
    ];
    const generic = heuristicDiagnosis(batch([t, t]), cleanMug, band);
    expect(generic.label).toBe('runs-out-of-steps');
    const household = heuristicDiagnosis(batch([t, t]), cleanMug, band, householdDesign);
    expect(household.label).toBe('never-opens-closed-receptacles');
  });

  it('reads a failed action from info.invalid, not from the reply text', () => {
    const t: Turn[] = [
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
    ];
    const b = batch([t]);
    for (const s of b.episodes[0]!.trajectory) {
      s.invalid = false;
      s.info = {};
    }
    expect(heuristicDiagnosis(b, cleanMug, band).label).not.toBe('repeats-failed-actions');
    expect(heuristicDiagnosis(batch([t]), cleanMug, band).label).toBe('repeats-failed-actions');
  });

  it('names a policy that never opens closed receptacles, citing the steps where it saw them', () => {
    const t: Turn[] = [
      ['go to countertop 1', 'You arrive at countertop 1. On the countertop 1, you see a apple 1.'],
      ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
      ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'],
    ];
    const d = heuristicDiagnosis(batch([t, t]), cleanMug, band, householdDesign);
    expect(d.label).toBe('never-opens-closed-receptacles');
    expect(d.axis).toBe('action');
    expect(d.direction).toBe('scaffold');
    expect(d.evidence).toContainEqual(expect.objectContaining({ episodeId: 'ep0', step: 1 }));
  });

  it('names repeated failed actions (a loop) when the agent retypes what just failed', () => {
    const t: Turn[] = [
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
      [
        'go to cabinet 1',
        'You arrive at cabinet 1. The cabinet 1 is open. In it, you see nothing.',
      ],
      ['open cabinet 1', 'Nothing happens.'],
    ];
    const d = heuristicDiagnosis(batch([t]), cleanMug, band, householdDesign);
    expect(d.label).toBe('repeats-failed-actions');
    expect(d.evidence[0]).toMatchObject({ episodeId: 'ep0', step: 1 });
  });

  it('names a placement without the transformation the goal asks for', () => {
    const t: Turn[] = [
      [
        'go to cabinet 1',
        'You arrive at cabinet 1. The cabinet 1 is open. In it, you see a mug 1.',
      ],
      ['take mug 1 from cabinet 1', 'You pick up the mug 1 from the cabinet 1.'],
      [
        'go to coffeemachine 1',
        'You arrive at coffeemachine 1. On the coffeemachine 1, you see nothing.',
      ],
      ['move mug 1 to coffeemachine 1', 'You move the mug 1 to the coffeemachine 1.'],
    ];
    const d = heuristicDiagnosis(batch([t], 'failure', 'gave_up'), cleanMug, band, householdDesign);
    expect(d.label).toBe('skips-required-transformation');
    expect(d.axis).toBe('task_understanding');
    expect(d.evidence).toEqual([expect.objectContaining({ episodeId: 'ep0', step: 3 })]);
    // the same trajectory with a clean step first is not that weakness
    const fixed: Turn[] = [
      ...t.slice(0, 2),
      ['clean mug 1 with sinkbasin 1', 'You clean the mug 1 using the sinkbasin 1.'],
      ...t.slice(2),
    ];
    expect(
      heuristicDiagnosis(batch([fixed], 'failure', 'gave_up'), cleanMug, band, householdDesign)
        .label,
    ).not.toBe('skips-required-transformation');
  });

  it('asks for a harder variant at 100% success and follows a stated defect', () => {
    const ok = batch([[['look', 'You are in the middle of a room.']]], 'success');
    const d = heuristicDiagnosis(ok, cleanMug, band, householdDesign);
    expect(d).toMatchObject({ axis: 'none', label: 'mastered', direction: 'harder' });
    const t: Turn[] = [
      ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
      ['open countertop 1', 'Nothing happens.'],
    ];
    const withDefect = heuristicDiagnosis(
      batch([t]),
      cleanMug,
      { ...band, defect: 'it keeps repeating the same failed command' },
      householdDesign,
    );
    expect(withDefect.label).toBe('repeats-failed-actions');
  });

  it('pick-two: says the agent found one glassbottle and took it, never that it saw none', () => {
    // train-0001's shape: glassbottle 2 on countertop 1, the second one and every cabinet closed.
    const t: Turn[] = [
      ['go to cabinet 3', 'You arrive at cabinet 3. The cabinet 3 is closed.'],
      [
        'go to countertop 1',
        'You arrive at countertop 1. On the countertop 1, you see a apple 1, a glassbottle 2, and a potato 1.',
      ],
      [
        'take glassbottle 2 from countertop 1',
        'You pick up the glassbottle 2 from the countertop 1.',
      ],
      ['go to cabinet 3', 'You arrive at cabinet 3. The cabinet 3 is closed.'],
      ['go to cabinet 5', 'You arrive at cabinet 5. The cabinet 5 is closed.'],
    ];
    const d = heuristicDiagnosis(batch([t, t]), twoBottles, band, householdDesign);
    expect(d.label).toBe('never-opens-closed-receptacles');
    expect(d.description).not.toMatch(/never saw a glassbottle\b(?! other)/);
    expect(d.description).toContain('never typed `open`');
    expect(d.description).toContain(
      'The goal needs two glassbottles: in 2 of them it saw glassbottle 2 (on countertop 1, first at step 1) and picked it up, and never saw a glassbottle other than glassbottle 2.',
    );
    expect(d.description).toContain('while holding glassbottle 2, 4 times in all');
    expect(d.claims).toEqual([
      expect.objectContaining({ in: 'action', text: 'open', episodeIds: ['ep0', 'ep1'] }),
      expect.objectContaining({
        in: 'observation',
        text: 'glassbottle',
        except: ['glassbottle 2'],
      }),
    ]);
    expect(d.evidence).toContainEqual(
      expect.objectContaining({
        episodeId: 'ep0',
        step: 2,
        quote: 'You pick up the glassbottle 2 from the countertop 1.',
      }),
    );
    // An episode that never shows a glassbottle is the only one said to have seen none.
    const blind: Turn[] = [
      ['go to cabinet 3', 'You arrive at cabinet 3. The cabinet 3 is closed.'],
    ];
    const mixed = heuristicDiagnosis(batch([t, blind]), twoBottles, band, householdDesign);
    expect(mixed.description).toContain('in 1 of them it never saw a glassbottle');
    expect(mixed.claims).toContainEqual(
      expect.objectContaining({ text: 'glassbottle', episodeIds: ['ep1'] }),
    );
  });

  it('says "never typed `clean`" only of episodes where no step typed it', () => {
    const placed: Turn[] = [
      [
        'go to cabinet 1',
        'You arrive at cabinet 1. The cabinet 1 is open. In it, you see a mug 1.',
      ],
      ['take mug 1 from cabinet 1', 'You pick up the mug 1 from the cabinet 1.'],
      ['move mug 1 to coffeemachine 1', 'You move the mug 1 to the coffeemachine 1.'],
    ];
    const cleanedLater: Turn[] = [
      ...placed,
      ['take mug 1 from coffeemachine 1', 'You pick up the mug 1 from the coffeemachine 1.'],
      ['clean mug 1 with sinkbasin 1', 'You clean the mug 1 using the sinkbasin 1.'],
    ];
    const d = heuristicDiagnosis(
      batch([placed, cleanedLater], 'failure', 'gave_up'),
      cleanMug,
      band,
      householdDesign,
    );
    expect(d.label).toBe('skips-required-transformation');
    expect(d.description).toContain(
      'in 2 of 2 failing episode(s) the agent placed a mug before any `clean` of it',
    );
    expect(d.description).toContain('In 1 of them it never typed `clean`.');
    expect(d.claims).toContainEqual(
      expect.objectContaining({ text: 'clean', episodeIds: ['ep0'] }),
    );
  });
});
