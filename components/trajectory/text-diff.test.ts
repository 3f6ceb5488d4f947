import { describe, expect, it } from 'vitest';
import { wordDiff } from './text-diff.ts';

describe('wordDiff', () => {
  it('marks removed and added words and keeps the rest', () => {
    const parts = wordDiff(
      'You arrive at drawer 1. The drawer 1 is closed.',
      'You arrive at drawer 1.',
    );
    expect(parts[0]).toEqual({ op: 'same', text: 'You arrive at drawer 1.' });
    expect(parts.filter((p) => p.op === 'del').map((p) => p.text.trim())).toEqual([
      'The drawer 1 is closed.',
    ]);
    expect(parts.some((p) => p.op === 'add')).toBe(false);
  });

  it('reassembles both texts exactly', () => {
    const a = 'a b c d e';
    const b = 'a x c e f';
    const parts = wordDiff(a, b);
    expect(
      parts
        .filter((p) => p.op !== 'add')
        .map((p) => p.text)
        .join(''),
    ).toBe(a);
    expect(
      parts
        .filter((p) => p.op !== 'del')
        .map((p) => p.text)
        .join(''),
    ).toBe(b);
  });

  it('returns one same part for equal texts', () => {
    expect(wordDiff('same', 'same')).toEqual([{ op: 'same', text: 'same' }]);
  });
});
