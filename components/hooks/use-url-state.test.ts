import { describe, expect, it } from 'vitest';
import { patchedQuery } from './use-url-state.ts';

describe('patchedQuery', () => {
  it('sets, replaces and removes keys, keeping the others', () => {
    expect(patchedQuery('a=1&b=2', { b: 3, c: 'x y' })).toBe('a=1&b=3&c=x+y');
    expect(patchedQuery('a=1&b=2', { a: null, b: '' })).toBe('');
    expect(patchedQuery('', { policy: 'scripted:household-looper' })).toBe(
      'policy=scripted%3Ahousehold-looper',
    );
  });

  it('two patches in a row, each on the last one written, keep both', () => {
    const first = patchedQuery('', { policy: 'p' });
    expect(patchedQuery(first, { outcome: 'all_errors' })).toBe('policy=p&outcome=all_errors');
  });
});
