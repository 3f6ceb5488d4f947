import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import type { StepRecord } from '../../../harness/types.ts';
import { batchStats } from '../../stats.ts';
import type { Batch, ObservedEpisode } from '../../types.ts';
import { heuristicDiagnosis } from './diagnose.ts';
import { householdDesign } from './household.ts';

function step(index: number, command: string, text: string): StepRecord {
  const action = { name: 'act', args: { command } };
  const observation = { text };
  const invalid = text === 'Nothing happens.';
  return {
    index,
    action,
    executedAction: action,
    rawObservation: observation,
    observation,
    reward: 0,
    terminated: false,
    truncated: false,
    info: { invalid },
    invalid,
    changes: [],
  };
}

function batch(
  trajectories: [string, string][][],
  outcome: 'success' | 'failure' = 'failure',
  category = 'step_budget_exhausted',
): Batch {
  const episodes: ObservedEpisode[] = trajectories.map((t, i) => ({
    episodeId: `ep${i}`,
    seed: i,
    outcome,
    failureCategory: outcome === 'failure' ? category : null,
    errorMessage: null,
    steps: t.length,
    trajectory: t.map(([c, o], j) => step(j, c, o)),
  }));
  return { runId: 'r', seeds: episodes.map((e) => e.seed), episodes, stats: batchStats(episodes) };
}

const cleanMug: TaskInfo = {
  id: 't',
  type: 'pick_clean_then_place_in_recep',
  goal: 'put a clean mug in coffeemachine',
  split: 'eval_seen',
  meta: { objectType: 'Mug', receptacleType: 'CoffeeMachine' },
};
const band = { band: [0.4, 0.6] as [number, number] };

describe('heuristic diagnosis (trajectories only)', () => {
  it('knows no bridge: without its design module, household patterns are not named', () => {
    const t: [string, string][] = [
      ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
      ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'],
    ];
    const generic = heuristicDiagnosis(batch([t, t]), cleanMug, band);
    expect(generic.label).toBe('runs-out-of-steps');
    const household = heuristicDiagnosis(batch([t, t]), cleanMug, band, householdDesign);
    expect(household.label).toBe('never-opens-closed-receptacles');
  });

  it('reads a failed action from info.invalid, not from the reply text', () => {
    const t: [string, string][] = [
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
    const t: [string, string][] = [
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
    const t: [string, string][] = [
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
    const t: [string, string][] = [
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
    const fixed: [string, string][] = [
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
    const t: [string, string][] = [
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
});
