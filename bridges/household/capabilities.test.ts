// The household bridge's capabilities: pinning a task to one scene and showing a pinned id as its
// benchmark task (generic code — EnvRigger, skills, the studio — relies on these, not on `@scene`).
import { describe, expect, it } from 'vitest';
import { displayTaskId, pinTask } from '../core/capabilities.ts';
import { householdBridge } from './index.ts';

describe('household capabilities', () => {
  it('pinTask appends @scene<N> once, and the pinned id is a task', async () => {
    const pinned = pinTask(householdBridge, 'train-0001', 3);
    expect(pinned).toBe('train-0001@scene3');
    expect(pinTask(householdBridge, pinned, 5)).toBe(pinned);
    expect(pinTask(householdBridge, 'train-0001@put', 2)).toBe('train-0001@put@scene2');
    expect(pinTask(householdBridge, 'train-0001@scene4@put', 2)).toBe('train-0001@scene4@put');
    expect((await householdBridge.getTask(pinned))?.id).toBe(pinned);
  });

  it('a pinned task resets to the same scene whatever the episode seed', async () => {
    const pinned = pinTask(householdBridge, 'train-0001', 3);
    const states = [];
    for (const seed of [0, 1, 99]) {
      const env = await householdBridge.create();
      await env.reset({ taskId: pinned, seed });
      states.push(env.getEnvState());
      await env.close();
    }
    expect(states[1]).toEqual(states[0]);
    expect(states[2]).toEqual(states[0]);
    const unpinned = await householdBridge.create();
    await unpinned.reset({ taskId: 'train-0001', seed: 1 });
    expect(unpinned.getEnvState()).not.toEqual(states[0]);
    await unpinned.close();
  });

  it('displayTaskId drops the scene pin only', () => {
    expect(displayTaskId(householdBridge, 'train-0001@scene12')).toBe('train-0001');
    expect(displayTaskId(householdBridge, 'train-0001@scene2@put')).toBe('train-0001@put');
    expect(displayTaskId(householdBridge, 'train-0001@put')).toBe('train-0001@put');
    expect(displayTaskId(householdBridge, 'train-0001')).toBe('train-0001');
  });

  it('bridges without the capabilities keep ids as they are', () => {
    expect(pinTask(undefined, 'x', 1)).toBe('x');
    expect(pinTask({}, '1-2-3-4', 7)).toBe('1-2-3-4');
    expect(displayTaskId({}, 'a@scene1')).toBe('a@scene1');
  });
});
