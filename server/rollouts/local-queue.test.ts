// The embedded queue's look-ahead: how many episodes a run keeps claimed beyond its running ones.
import { describe, expect, it } from 'vitest';
import { claimedAhead } from './local-queue.ts';

describe('claimedAhead', () => {
  it('is none until an episode has ended: a claimed episode shows as running', () => {
    expect(claimedAhead(2, undefined)).toBe(0);
    expect(claimedAhead(64, undefined)).toBe(0);
  });

  it('covers the claim round trip for short episodes, up to 12', () => {
    expect(claimedAhead(2, 3)).toBe(12);
    expect(claimedAhead(2, 0)).toBe(12);
    expect(claimedAhead(2, 10)).toBe(6);
    expect(claimedAhead(4, 10)).toBe(12);
    expect(claimedAhead(2, 200)).toBe(1);
  });

  it('keeps one ahead per slot, and 2 more, for a run with more slots than 12', () => {
    expect(claimedAhead(32, 3)).toBe(34);
    expect(claimedAhead(256, 1)).toBe(258);
    expect(claimedAhead(32, 200)).toBe(5);
  });

  it('is none for episodes of half a second and more', () => {
    expect(claimedAhead(2, 500)).toBe(0);
    expect(claimedAhead(2, 5_000)).toBe(0);
    expect(claimedAhead(256, 2_000)).toBe(0);
  });
});
