import { describe, expect, it } from 'vitest';
import { filterOf, filterStep, moveStep, selectedStep, stepRows } from './viewer.ts';

const flags = { total: 10, changed: [2, 5, 7], blocked: [], invalid: [5] };

describe('step list', () => {
  it('accepts only known filters', () => {
    expect(filterOf('changed')).toBe('changed');
    expect(filterOf('bogus')).toBe('');
    expect(filterOf(undefined)).toBe('');
  });

  it('maps rows to steps, identity without a filter', () => {
    const all = stepRows(null, 10);
    expect([all.count, all.indexAt(4), all.posOf(4)]).toEqual([10, 4, 4]);
    const changed = stepRows(flags.changed, 10);
    expect([changed.count, changed.indexAt(1), changed.posOf(7), changed.posOf(3)]).toEqual([
      3, 5, 2, -1,
    ]);
  });

  it('selects the URL step clamped to the episode, else the first of the filter', () => {
    expect(selectedStep('4', null, 10)).toBe(4);
    expect(selectedStep('99', null, 10)).toBe(9);
    expect(selectedStep('-3', null, 10)).toBe(0);
    expect(selectedStep('abc', null, 10)).toBe(0);
    expect(selectedStep(undefined, flags.changed, 10)).toBe(2);
    expect(selectedStep(undefined, null, 0)).toBe(0);
  });

  it('moves with j and k through the filtered rows and stops at the ends', () => {
    const changed = stepRows(flags.changed, 10);
    expect(moveStep(changed, 2, 'j')).toBe(5);
    expect(moveStep(changed, 5, 'k')).toBe(2);
    expect(moveStep(changed, 7, 'j')).toBeNull();
    expect(moveStep(changed, 2, 'k')).toBeNull();
    // A cursor outside the filter: j goes to the filter's first row.
    expect(moveStep(changed, 3, 'j')).toBe(2);
    expect(moveStep(stepRows(null, 10), 9, 'j')).toBeNull();
  });

  it('lands a filter tab on its first flagged step, or nowhere when it has none', () => {
    expect(filterStep('changed', flags, 9)).toBe(2);
    expect(filterStep('blocked', flags, 9)).toBeNull();
    expect(filterStep('', flags, 9)).toBe(9);
    expect(filterStep('changed', undefined, 9)).toBe(9);
  });
});
