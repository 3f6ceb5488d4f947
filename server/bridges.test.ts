import { describe, expect, it } from 'vitest';
import { remotesFromConfig } from './bridges.ts';

describe('REMOTE_ENVS', () => {
  it('names each environment server', () => {
    expect(remotesFromConfig('alfworld=http://127.0.0.1:8000, shop=http://localhost:9/x')).toEqual([
      { name: 'alfworld', url: 'http://127.0.0.1:8000' },
      { name: 'shop', url: 'http://localhost:9/x' },
    ]);
    expect(remotesFromConfig(undefined)).toEqual([]);
  });
});
