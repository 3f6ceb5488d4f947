import { describe, expect, it } from 'vitest';
import {
  clearChange,
  compareRows,
  deltaOf,
  parsePair,
  type RunMetrics,
  sampleEpisodes,
  specLabel,
  togglePick,
} from './model.ts';

const metrics = (o: Partial<RunMetrics>): RunMetrics => ({
  successRate: 0.5,
  interval: [0.3, 0.7],
  successes: 4,
  failures: 4,
  errors: 0,
  meanSteps: 20,
  meanStepsSuccess: 15,
  meanReward: 0.4,
  failureDistribution: { step_budget_exhausted: 4 },
  ...o,
});

describe('deltas', () => {
  it('reads a rise in success as better, in points', () => {
    expect(deltaOf({ a: 0.25, b: 0.75, better: 'higher', percent: true })).toEqual({
      kind: 'changed',
      up: true,
      good: true,
      text: '+50.0 pts',
    });
  });

  it('reads fewer steps as better and more errors as worse', () => {
    expect(deltaOf({ a: 20, b: 12.5, better: 'lower' })).toMatchObject({
      good: true,
      text: '-7.5',
    });
    expect(deltaOf({ a: 0, b: 2, better: 'lower', digits: 0 })).toMatchObject({
      good: false,
      text: '+2',
    });
    expect(deltaOf({ a: 1, b: 2, better: 'none' })).toMatchObject({ good: undefined, up: true });
  });

  it('calls changes below the shown digits the same, and a missing side missing', () => {
    expect(deltaOf({ a: 10, b: 10.001, better: 'lower' })).toEqual({ kind: 'same' });
    expect(deltaOf({ a: 0.5, b: 0.5004, better: 'higher', percent: true })).toEqual({
      kind: 'same',
    });
    expect(deltaOf({ a: null, b: 1, better: 'higher' })).toEqual({ kind: 'missing' });
  });

  it('marks a success change clear only when the intervals do not overlap', () => {
    const low = metrics({ successRate: 0.2, interval: [0.1, 0.35] });
    const high = metrics({ successRate: 0.8, interval: [0.6, 0.9] });
    expect(clearChange(low, high)).toBe(true);
    expect(clearChange(low, metrics({}))).toBe(false);
    expect(clearChange(low, metrics({ successRate: null }))).toBe(false);
  });
});

describe('comparison table', () => {
  it('keeps the same rows for both runs, one per failure category either saw', () => {
    const a = metrics({});
    const b = metrics({ failures: 2, failureDistribution: { gave_up: 2 } });
    const rows = compareRows(a, b);
    expect(rows.map((r) => r.testId)).toEqual([
      'success',
      'interval',
      'scored',
      'mean-steps',
      'mean-steps-success',
      'reward',
      'errors',
      'failure-step_budget_exhausted',
      'failure-gave_up',
    ]);
    const gaveUp = rows.find((r) => r.testId === 'failure-gave_up')!;
    expect([gaveUp.a, gaveUp.b]).toEqual(['0 (0%)', '2 (100%)']);
    expect(gaveUp.delta).toMatchObject({ a: 0, b: 1, better: 'lower', percent: true, digits: 0 });
    expect(rows[0]?.delta?.clear).toBe(false);
    expect(rows.find((r) => r.testId === 'interval')?.a).toBe('[30.0, 70.0]');
  });
});

describe('beside the numbers', () => {
  it('samples three failures, two successes and one error', () => {
    const items = [
      'failure',
      'success',
      'failure',
      'error',
      'failure',
      'failure',
      'success',
      'success',
      'error',
    ].map((outcome, i) => ({ id: `e${i}`, outcome }));
    expect(sampleEpisodes(items).map((e) => e.id)).toEqual(['e0', 'e2', 'e4', 'e1', 'e6', 'e3']);
  });

  it('labels a bare task and a harness by its top layer, and splits a pair', () => {
    expect(specLabel({ type: 'base', bridge: 'toy24', task: '1-2-3-4' })).toBe(
      'toy24:1-2-3-4 (bare)',
    );
    expect(specLabel({ type: 'contract' })).toBe('harness (contract on top)');
    expect(parsePair(' a1 .. b2 ')).toEqual(['a1', 'b2']);
    expect(parsePair('a1..')).toEqual(['a1', '']);
  });
});

describe('picking two runs', () => {
  it('keeps at most two, the newest pick replacing the older, and unpicks on a second click', () => {
    let picked = togglePick([], 'a');
    picked = togglePick(picked, 'b');
    expect(picked).toEqual(['a', 'b']);
    expect(togglePick(picked, 'c')).toEqual(['b', 'c']);
    expect(togglePick(picked, 'a')).toEqual(['b']);
  });
});
