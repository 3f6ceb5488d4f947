import { describe, expect, it } from 'vitest';
import { parseList, typeOf } from './observation.ts';

describe('typeOf', () => {
  it('drops the number and inner spaces, the same on every call', () => {
    for (let i = 0; i < 3; i++) {
      expect(typeOf('mug 2')).toBe('mug');
      expect(typeOf('desk lamp 1')).toBe('desklamp');
      expect(typeOf('sinkbasin')).toBe('sinkbasin');
    }
  });

  it('keeps answering right past its cache size', () => {
    for (let i = 0; i < 5000; i++) expect(typeOf(`thing${i % 7} ${i}`)).toBe(`thing${i % 7}`);
    expect(typeOf('mug 2')).toBe('mug');
  });
});

describe('parseList', () => {
  it('splits an ALFWorld list', () => {
    expect(parseList('a mug 1, an apple 2, and a knife 1.')).toEqual([
      'mug 1',
      'apple 2',
      'knife 1',
    ]);
    expect(parseList('nothing')).toEqual([]);
  });
});
