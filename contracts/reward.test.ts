import { describe, expect, it } from 'vitest';
import type { Action } from '../bridges/core/types.ts';
import {
  costAwareReward,
  countRepeats,
  lambdaDiv,
  MALFORMED_ACTION_NAME,
  resolveRewardParams,
  verbOf,
} from './reward.ts';
import { DEFAULT_REWARD_PARAMS, DEFAULT_REWARD_SOURCES } from './runs.ts';

const act = (command: string): Action => ({ name: 'act', args: { command } });
const textTool = { name: 'act', arg: 'command' };
const step = (action: Action, invalid = false) => ({ action, invalid });

describe('cost-aware reward', () => {
  const trajectory = [
    step(act('go to desk 1')),
    step(act('take mug 1 from desk 1')),
    step(act('take mug 1 from desk 1'), true),
    step(act('go to shelf 1')),
    step(act('put mug 1 in/on shelf 1')),
  ];

  it('scores a successful episode term by term (hand-computed)', () => {
    const r = costAwareReward({ success: true, trajectory, textTool }, resolveRewardParams());
    // R_succ 10, R_eff 1 - 5/50 = 0.9, R_div 3 verbs / 5 = 0.6, R_spam 1, R_inv 1, λ_div(0) = 1
    expect(r.rSucc).toBe(10);
    expect(r.rEff).toBeCloseTo(0.9, 12);
    expect(r.rDiv).toBeCloseTo(0.6, 12);
    expect(r.rSpam).toBe(1);
    expect(r.rInv).toBe(1);
    expect(r.lambdaDiv).toBe(1);
    expect(r.total).toBeCloseTo(10 + 0.9 + 0.6 - 0.1 - 0.1, 12);
  });

  it('gives no success or efficiency term on failure', () => {
    const r = costAwareReward({ success: false, trajectory, textTool });
    expect(r.rSucc).toBe(0);
    expect(r.rEff).toBe(0);
    expect(r.total).toBeCloseTo(0.6 - 0.1 - 0.1, 12);
  });

  it('anneals λ_div with a cosine over U updates', () => {
    expect(lambdaDiv({ lambdaDivMax: 1, annealUpdates: 150, update: 0 })).toBe(1);
    expect(lambdaDiv({ lambdaDivMax: 1, annealUpdates: 150, update: 75 })).toBeCloseTo(0.5, 12);
    expect(lambdaDiv({ lambdaDivMax: 1, annealUpdates: 150, update: 150 })).toBeCloseTo(0, 12);
    expect(lambdaDiv({ lambdaDivMax: 2, annealUpdates: 150, update: 50 })).toBeCloseTo(
      1 + Math.cos(Math.PI / 3),
      12,
    );
    // past U the weight stays at 0
    expect(lambdaDiv({ lambdaDivMax: 1, annealUpdates: 150, update: 400 })).toBeCloseTo(0, 12);
    const r = costAwareReward(
      { success: false, trajectory, textTool },
      resolveRewardParams({ update: 75 }),
    );
    expect(r.total).toBeCloseTo(0.5 * 0.6 - 0.2, 12);
  });

  it('caps R_spam and clamps R_eff at 0 for long trajectories', () => {
    const long = Array.from({ length: 60 }, () => step(act('look')));
    const r = costAwareReward({ success: true, trajectory: long, textTool });
    expect(countRepeats(long)).toBe(59);
    expect(r.rSpam).toBe(10);
    expect(r.rEff).toBe(0);
    expect(r.rDiv).toBeCloseTo(1 / 60, 12);
    expect(r.total).toBeCloseTo(10 + 1 / 60 - 1, 12);
  });

  it('treats argument order as irrelevant and malformed decisions as breaking a repeat run', () => {
    const a = { name: 'combine', args: { a: 1, b: 2 } };
    const b = { name: 'combine', args: { b: 2, a: 1 } };
    const bad = { name: MALFORMED_ACTION_NAME, args: { raw: 'x' } };
    expect(countRepeats([step(a), step(b)])).toBe(1);
    expect(countRepeats([step(a), step(bad, true), step(b)])).toBe(0);
    expect(countRepeats([step(bad, true), step(bad, true)])).toBe(0);
    const r = costAwareReward({ success: false, trajectory: [step(a), step(bad, true), step(b)] });
    // verbs: combine only (malformed has none) -> 1/3; R_inv 1
    expect(r.rDiv).toBeCloseTo(1 / 3, 12);
    expect(r.total).toBeCloseTo(1 / 3 - 0.1, 12);
  });

  it('takes the verb from the text tool, else the tool name', () => {
    expect(verbOf(act('  Open drawer 1'), textTool)).toBe('open');
    expect(verbOf(act('open drawer 1'))).toBe('act');
    expect(verbOf({ name: MALFORMED_ACTION_NAME, args: {} }, textTool)).toBeNull();
  });

  it('is zero-length safe', () => {
    const r = costAwareReward({ success: false, trajectory: [] });
    expect(r.total).toBe(0);
    expect(r.rDiv).toBe(0);
  });
});

describe('reward defaults name their source', () => {
  it('R_succ is from EvoHarness, λ_inv from EnvHarness F.1, every other default is ours', () => {
    expect(Object.keys(DEFAULT_REWARD_SOURCES).sort()).toEqual(
      Object.keys(DEFAULT_REWARD_PARAMS).sort(),
    );
    expect(DEFAULT_REWARD_PARAMS.success).toBe(10);
    expect(DEFAULT_REWARD_SOURCES.success).toMatch(/^EvoHarness/);
    expect(DEFAULT_REWARD_PARAMS.lambdaInv).toBe(0.1);
    expect(DEFAULT_REWARD_SOURCES.lambdaInv).toMatch(/^EnvHarness, appendix F\.1/);
    for (const [key, source] of Object.entries(DEFAULT_REWARD_SOURCES)) {
      if (key !== 'success' && key !== 'lambdaInv') expect(source).toMatch(/^ours/);
    }
  });
});
