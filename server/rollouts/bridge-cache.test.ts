import { describe, expect, it } from 'vitest';
import type { Bridge, BridgeResolver } from '../../bridges/core/types.ts';
import { keepLoaded } from './bridge-cache.ts';

describe('keepLoaded', () => {
  it('loads a bridge once per thread, and asks again after a failed or unknown lookup', async () => {
    const calls: string[] = [];
    let failNext = true;
    const bridge = { name: 'household' } as unknown as Bridge;
    const inner: BridgeResolver = {
      names: () => ['household'],
      async get(name) {
        calls.push(name);
        if (name !== 'household') return undefined;
        if (failNext) {
          failNext = false;
          throw new Error('server down');
        }
        return bridge;
      },
    };
    const kept = keepLoaded(inner);
    await expect(kept.get('household')).rejects.toThrow('server down');
    expect(await kept.get('household')).toBe(bridge);
    expect(await kept.get('household')).toBe(bridge);
    expect(await kept.get('nope')).toBeUndefined();
    expect(await kept.get('nope')).toBeUndefined();
    expect(calls).toEqual(['household', 'household', 'nope', 'nope']);
    expect(kept.names()).toEqual(['household']);
  });
});
