import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../../contracts/skills.ts';
import {
  bankRunId,
  chartData,
  labelBesideWhisker,
  pct,
  rowsOf,
  sourceLabel,
  titleOf,
  WHISKER_HALF,
} from './model.ts';

const row: SourceRow = {
  source: 'envharness',
  bankId: 'b1',
  skills: 5,
  trainSuccessRate: 0.5,
  n: 24,
  successes: 12,
  successRate: 0.5,
  interval: [0.31, 0.69] as [number, number],
  meanSteps: 17.26,
  meanStepsSuccess: 12,
  perType: {},
  trainEpisodes: 8,
  errors: 0,
};

describe('skill-source comparison', () => {
  it('reads the rows of stored results, none before there are results', () => {
    const results = { rows: [row], trainTasks: [], evalTasks: [], envharness: [], durationMs: 1 };
    expect(rowsOf(results)).toEqual([row]);
    expect(rowsOf(null)).toEqual([]);
    expect(rowsOf(undefined)).toEqual([]);
  });

  it('charts percent with the interval as asymmetric error bars', () => {
    expect(chartData([row])).toEqual([
      { label: 'EnvHarness envs', success: 50, err: [19, 19], steps: 17.3 },
    ]);
    expect(sourceLabel('custom')).toBe('custom');
    expect(pct(null)).toBe('—');
    expect(pct(0.125)).toBe('12.5%');
  });
});

describe('skill banks', () => {
  it('finds the run a bank came from only when its config names one', () => {
    expect(bankRunId({ runId: 'r1', k: 3 })).toBe('r1');
    expect(bankRunId({ runId: 3 })).toBeUndefined();
    expect(bankRunId(['r1'])).toBeUndefined();
    expect(bankRunId(null)).toBeUndefined();
  });

  it('names an edit by the skill title, or the merged titles', () => {
    expect(titleOf({ title: 'Open drawers' })).toBe('Open drawers');
    expect(titleOf([{ title: 'A' }, { nope: 1 }, { title: 'B' }])).toBe('A + B');
    expect(titleOf('text')).toBeUndefined();
  });
});

describe('the success bar label', () => {
  it('ends left of the interval whisker, which runs through the bar centre', () => {
    const bar = { x: 100, y: 50, width: 60 };
    const at = labelBesideWhisker(bar);
    const whiskerLeft = bar.x + bar.width / 2 - WHISKER_HALF;
    expect(at.x).toBeLessThan(whiskerLeft);
    expect(at.y).toBeLessThan(bar.y);
  });
});
