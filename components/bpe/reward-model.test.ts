import { describe, expect, it } from 'vitest';
import { costAwareReward } from '../../contracts/reward.ts';
import { DEFAULT_REWARD_PARAMS } from '../../contracts/runs.ts';
import { rewardView } from './reward-model.ts';

const act = (command: string) => ({ action: { name: 'act', args: { command } }, invalid: false });

describe('rewardView', () => {
  it('shows each term with its weight, and the contributions add up to the stored total', () => {
    const params = { ...DEFAULT_REWARD_PARAMS, update: 75, lambdaInv: 0.5 };
    const stored = costAwareReward(
      {
        success: true,
        trajectory: [act('go to desk 1'), act('go to desk 1'), { ...act('fly'), invalid: true }],
        textTool: { name: 'act', arg: 'command' },
      },
      params,
    );
    const view = rewardView(stored, params);
    expect(view).not.toBeNull();
    const byTerm = Object.fromEntries((view?.rows ?? []).map((r) => [r.term, r]));
    expect(byTerm.task?.contribution).toBe(10);
    expect(byTerm.efficiency?.value).toBeCloseTo(1 - 3 / 50);
    // Halfway through the annealing, λ_div is half its maximum.
    expect(byTerm.diversity?.weight).toBeCloseTo(0.5);
    expect(byTerm.diversity?.value).toBeCloseTo(2 / 3);
    expect(byTerm.spam?.contribution).toBeCloseTo(-0.1);
    expect(byTerm.invalid?.contribution).toBeCloseTo(-0.5);
    const sum = (view?.rows ?? []).reduce((a, r) => a + r.contribution, 0);
    expect(sum).toBeCloseTo(view?.total ?? Number.NaN);
    expect(view?.anneal).toEqual({ lambdaDivMax: 1, update: 75, annealUpdates: 150 });
  });

  it('is null for an episode without reward terms', () => {
    expect(rewardView(null)).toBeNull();
    expect(rewardView({ rSucc: 1 })).toBeNull();
  });
});
