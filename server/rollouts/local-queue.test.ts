// The embedded queue's look-ahead: how many episodes a run keeps claimed beyond its running ones.
import { describe, expect, it } from 'vitest';
import { claimedAhead } from './local-queue.ts';

describe('claimedAhead', () => {
  it('is concurrency + 2 until an episode has ended', () => {
    expect(claimedAhead(2, undefined)).toBe(4);
    expect(claimedAhead(64, undefined)).toBe(66);
  });

  it('covers the claim round trip for millisecond episodes, up to 12', () => {
    expect(claimedAhead(2, 3)).toBe(12);
    expect(claimedAhead(2, 0)).toBe(12);
    expect(claimedAhead(2, 10)).toBe(6);
    expect(claimedAhead(4, 10)).toBe(12);
  });

  it('stays at concurrency + 2 for long episodes and large runs', () => {
    expect(claimedAhead(2, 200)).toBe(4);
    expect(claimedAhead(2, 5_000)).toBe(4);
    expect(claimedAhead(256, 1)).toBe(258);
  });
});
