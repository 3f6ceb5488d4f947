// A bridge's observation is capped where it enters the stack (base.ts): a 1 MB observation is
// neither shown nor recorded whole, and the cut says how long it was.
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import type { ActionableEnv, Bridge } from '../../bridges/core/types.ts';
import { MAX_OBSERVATION_CHARS } from '../../contracts/text.ts';
import { createHarness } from './index.ts';
import { act, fakeBridges } from './testing/fake-bridges.ts';

/** The room bridge, with every observation blown up to `size` characters. */
function loudRoom(size: number): Bridge {
  const { room } = fakeBridges();
  const loud = (env: ActionableEnv): ActionableEnv =>
    new Proxy(env, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'reset' && key !== 'step')
          return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const r = await (
            value as (...a: unknown[]) => Promise<{ observation: { text: string } }>
          ).apply(target, args);
          return {
            ...r,
            observation: { ...r.observation, text: r.observation.text + 'z'.repeat(size) },
          };
        };
      },
    });
  return { ...room, create: async () => loud(await room.create()) };
}

describe('bridge observations', () => {
  it('are capped with a note of their length, at reset and at every step', async () => {
    const h = await createHarness(
      { version: 1, env: { type: 'base', bridge: 'room', task: 'key-in-box' } },
      { bridges: resolverOf([loudRoom(1_000_000)]) },
    );
    try {
      const reset = await h.reset({ seed: 0 });
      expect(reset.observation.text.length).toBeLessThanOrEqual(MAX_OBSERVATION_CHARS);
      expect(reset.observation.text).toMatch(/\[cut: \d{7} characters in all\]$/);
      const step = await h.step(act('take key'));
      expect(step.observation.text.length).toBeLessThanOrEqual(MAX_OBSERVATION_CHARS);
      expect(step.record.rawObservation?.text.length).toBeLessThanOrEqual(MAX_OBSERVATION_CHARS);
      expect(step.record.observation.text).toMatch(/\[cut: \d{7} characters in all\]$/);
    } finally {
      await h.close();
    }
  });
});
