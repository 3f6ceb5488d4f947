import { describe, expect, it } from 'vitest';
import { computeMetrics, wilsonInterval } from './metrics.ts';

describe('Wilson interval', () => {
  it('matches hand-computed values', () => {
    // p = 0.7, n = 10: centre 0.89207/1.38415 = 0.64449, half 1.41601·√0.0306036 = 0.24772
    const [lo, hi] = wilsonInterval(7, 10);
    expect(lo).toBeCloseTo(0.39677, 4);
    expect(hi).toBeCloseTo(0.8922, 4);
    const [lo0, hi0] = wilsonInterval(0, 5);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(3.8415 / (5 + 3.8415), 3);
    const [lo1, hi1] = wilsonInterval(5, 5);
    expect(hi1).toBe(1);
    expect(lo1).toBeCloseTo(5 / (5 + 3.8415), 3);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('contains the point estimate exactly: 10 of 10 reaches 1, 0 of n starts at 0', () => {
    expect(wilsonInterval(10, 10)[1]).toBe(1);
    for (let n = 1; n <= 200; n++) {
      for (const k of [0, 1, Math.floor(n / 2), n - 1, n]) {
        if (k < 0 || k > n) continue;
        const [lo, hi] = wilsonInterval(k, n);
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(lo).toBeLessThanOrEqual(k / n);
        expect(hi).toBeGreaterThanOrEqual(k / n);
      }
      expect(wilsonInterval(n, n)[1]).toBe(1);
      expect(wilsonInterval(0, n)[0]).toBe(0);
    }
  });
});

describe('run metrics', () => {
  it('keeps errors out of the success rate, the step means and the failure distribution', () => {
    const m = computeMetrics([
      { outcome: 'success', steps: 10, reward: 10.6 },
      { outcome: 'success', steps: 20, reward: 10.2 },
      { outcome: 'failure', failureCategory: 'step_budget_exhausted', steps: 50, reward: 0.1 },
      { outcome: 'failure', failureCategory: 'gave_up', steps: 4, reward: 0.3 },
      { outcome: 'error', errorKind: 'infra', steps: 3, reward: null },
      { outcome: 'error', errorKind: 'harness', steps: 0, reward: null },
      { outcome: null, steps: 0 },
    ]);
    expect(m.successes).toBe(2);
    expect(m.failures).toBe(2);
    expect(m.errors).toBe(2);
    expect(m.finished).toBe(6);
    expect(m.successRate).toBe(0.5);
    expect(m.interval).toEqual(wilsonInterval(2, 4));
    expect(m.failureDistribution).toMatchObject({
      step_budget_exhausted: 1,
      gave_up: 1,
      wrong_final_state: 0,
    });
    expect(m.errorDistribution).toMatchObject({ infra: 1, harness: 1, policy: 0 });
    expect(m.meanSteps).toBe((10 + 20 + 50 + 4) / 4);
    expect(m.meanStepsSuccess).toBe(15);
    expect(m.meanReward).toBeCloseTo((10.6 + 10.2 + 0.1 + 0.3) / 4, 12);
  });

  it('reports no rate when only errors happened', () => {
    const m = computeMetrics([{ outcome: 'error', errorKind: 'policy', steps: 1 }]);
    expect(m.successRate).toBeNull();
    expect(m.meanSteps).toBeNull();
    expect(m.errors).toBe(1);
  });
});
