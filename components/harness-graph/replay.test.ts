import { describe, expect, it } from 'vitest';
import { baseTask, replaySummary } from './replay.ts';

describe('test on a trajectory', () => {
  it('plays the task of the first environment, through stages, contracts and chain legs', () => {
    expect(
      baseTask({
        version: 1,
        env: {
          type: 'contract',
          code: '',
          env: {
            type: 'chain',
            mode: 'sequential',
            first: {
              type: 'stage',
              actions: [],
              env: { type: 'base', bridge: 'h', task: 'first' },
            },
            second: { type: 'base', bridge: 'h', task: 'second' },
          },
        },
      }),
    ).toBe('first');
  });

  it('counts changed and blocked steps apart', () => {
    const s = replaySummary([
      { index: 0, changes: [] },
      { index: 1, changes: [{ what: 'observation' }] },
      { index: 2, changes: [{ what: 'blocked' }], blocked: 'no' },
    ]);
    expect(s.changed.map((x) => x.index)).toEqual([1, 2]);
    expect(s.blocked).toBe(1);
    expect(s.total).toBe(3);
  });
});
