import { describe, expect, it } from 'vitest';
import { batchStats, decideByStats } from './stats.ts';
import type { ObservedEpisode } from './types.ts';

function episodes(
  successes: number,
  failures: number,
  steps = 10,
  category = 'gave_up',
): ObservedEpisode[] {
  const out: ObservedEpisode[] = [];
  for (let i = 0; i < successes + failures; i++) {
    const ok = i < successes;
    out.push({
      episodeId: `e${i}`,
      seed: i,
      outcome: ok ? 'success' : 'failure',
      failureCategory: ok ? null : category,
      errorMessage: null,
      steps,
      trajectory: [],
    });
  }
  return out;
}

const band = { band: [0.4, 0.6] as [number, number] };

describe('the Validate rule', () => {
  it('never accepts 0% success, even when the band would allow it', () => {
    const stats = batchStats(episodes(0, 5));
    expect(decideByStats(stats, band, false).decision).toBe('reject');
    expect(decideByStats(stats, { band: [0, 0.6] }, false).decision).toBe('reject');
    expect(decideByStats(stats, band, false).feedback).toMatch(/unsolvable/);
  });

  it('accepts inside the band and refines outside it, rejecting on the last iteration', () => {
    expect(decideByStats(batchStats(episodes(2, 3)), band, false).decision).toBe('accept');
    expect(decideByStats(batchStats(episodes(3, 2)), band, true).decision).toBe('accept');
    const easy = decideByStats(batchStats(episodes(5, 0)), band, false);
    expect(easy.decision).toBe('refine');
    expect(easy.feedback).toMatch(/harder/);
    expect(decideByStats(batchStats(episodes(1, 4)), band, false).feedback).toMatch(/easier/);
    expect(decideByStats(batchStats(episodes(5, 0)), band, true).decision).toBe('reject');
  });

  it('holds the mean-steps band too, and counts time-outs', () => {
    const stats = batchStats(episodes(2, 3, 40, 'step_budget_exhausted'));
    expect(stats.timeouts).toBe(3);
    expect(stats.failureDistribution).toEqual({ step_budget_exhausted: 3 });
    const verdict = decideByStats(stats, { ...band, stepsBand: [25, 35] }, false);
    expect(verdict.decision).toBe('refine');
    expect(verdict.feedback).toMatch(/mean steps 40\.0/);
    expect(decideByStats(stats, { ...band, stepsBand: [35, 45] }, false).decision).toBe('accept');
  });

  it('rejects a harness that errors instead of scoring it', () => {
    const broken = episodes(1, 0).concat(
      [1, 2, 3].map((i) => ({
        episodeId: `x${i}`,
        seed: i,
        outcome: 'error' as const,
        failureCategory: null,
        errorMessage: 'HarnessCodeError: boom',
        steps: 0,
        trajectory: [],
      })),
    );
    const stats = batchStats(broken);
    expect(stats.n).toBe(1);
    expect(stats.errors).toBe(3);
    const verdict = decideByStats(stats, band, false);
    expect(verdict.decision).toBe('reject');
    expect(verdict.feedback).toContain('boom');
  });
});
