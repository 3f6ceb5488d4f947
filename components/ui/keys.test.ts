import { describe, expect, it } from 'vitest';
import { keyedByOccurrence } from './keys.ts';

describe('keyedByOccurrence', () => {
  it('keys a repeated string by its occurrence, so no two keys collide', () => {
    const keyed = keyedByOccurrence(['look', 'go to desk 1', 'look', 'look#2', 'look']);
    expect(keyed.map((k) => k.value)).toEqual(['look', 'go to desk 1', 'look', 'look#2', 'look']);
    expect(keyed.map((k) => k.key)).toEqual([
      'look',
      'go to desk 1',
      'look#2',
      'look#2#2',
      'look#3',
    ]);
    expect(new Set(keyed.map((k) => k.key)).size).toBe(keyed.length);
  });

  it('leaves a list without repeats keyed by its strings', () => {
    expect(keyedByOccurrence(['a', 'b']).map((k) => k.key)).toEqual(['a', 'b']);
    expect(keyedByOccurrence([])).toEqual([]);
  });
});
