// The one delegating decorator: every ActionableEnv method reaches the inner env unless a subclass
// overrides it, and the layers, the bridge leaf and the Harness all derive from it.
import { describe, expect, it } from 'vitest';
import type { Action, ActionableEnv, StepResult } from '../../bridges/core/types.ts';
import { BaseLayer } from './base.ts';
import { DelegatingEnv } from './delegate.ts';
import { createHarness, EnvHarness } from './index.ts';
import { StageLayer } from './stage.ts';
import { act, fakeBridges } from './testing/fake-bridges.ts';

/** An env that records which method was called and answers with the method's name. */
function recorder(): ActionableEnv & { calls: string[] } {
  const calls: string[] = [];
  const note = <T>(name: string, value: T): T => {
    calls.push(name);
    return value;
  };
  return {
    calls,
    get envType() {
      return note('envType', 'rec');
    },
    listTasks: async () => note('listTasks', []),
    reset: async () => note('reset', { observation: { text: 'reset' }, info: {} }),
    step: async () =>
      note('step', {
        observation: { text: 'step' },
        reward: 0,
        terminated: false,
        truncated: false,
        info: {},
      }),
    observe: () => note('observe', { text: 'observe' }),
    evaluate: async () => note('evaluate', { success: true, score: 1, metrics: {} }),
    getEnvState: () => note('getEnvState', { s: 1 }),
    stateSchema: () => note('stateSchema', { type: 'object' }),
    tools: () => note('tools', []),
    saveState: async () => note('saveState', { envType: 'rec', reset: { taskId: 't', seed: 0 } }),
    close: async () => {
      note('close', undefined);
    },
  };
}

describe('DelegatingEnv', () => {
  it('delegates every ActionableEnv method to the inner env by default', async () => {
    const inner = recorder();
    const env = new DelegatingEnv(inner);
    expect(env.envType).toBe('rec');
    await env.listTasks();
    expect((await env.reset({ taskId: 't', seed: 0 })).observation.text).toBe('reset');
    expect((await env.step(act('look'))).observation.text).toBe('step');
    expect(env.observe().text).toBe('observe');
    expect((await env.evaluate()).success).toBe(true);
    expect(env.getEnvState()).toEqual({ s: 1 });
    expect(env.stateSchema()).toEqual({ type: 'object' });
    expect(env.tools()).toEqual([]);
    expect((await env.saveState()).envType).toBe('rec');
    await env.close();
    expect(inner.calls).toEqual([
      'envType',
      'listTasks',
      'reset',
      'step',
      'observe',
      'evaluate',
      'getEnvState',
      'stateSchema',
      'tools',
      'saveState',
      'close',
    ]);
  });

  it('a subclass overrides only what it changes', async () => {
    class Shout extends DelegatingEnv {
      override async step(action: Action): Promise<StepResult> {
        const r = await this.inner.step(action);
        return { ...r, observation: { text: r.observation.text.toUpperCase() } };
      }
    }
    const inner = recorder();
    const env = new Shout(inner);
    expect((await env.step(act('x'))).observation.text).toBe('STEP');
    expect(env.observe().text).toBe('observe');
    expect(inner.calls).toEqual(['step', 'observe']);
  });

  it('reads a state path through the env below, from its full view where it has no narrow read', () => {
    const inner = recorder();
    const env = new DelegatingEnv(inner);
    expect(env.getEnvStateAt(['s'])).toBe(1);
    expect(env.getEnvStateAt(['s', 'x'])).toBeUndefined();
    expect(inner.calls).toEqual(['getEnvState', 'getEnvState']);
    const narrow = Object.assign(recorder(), {
      getEnvStateAt: (path: readonly string[]) => `at ${path.join('.')}`,
    });
    expect(new DelegatingEnv(new DelegatingEnv(narrow)).getEnvStateAt(['a', 'b'])).toBe('at a.b');
    expect(narrow.calls).toEqual([]);
  });

  it('serves the bridge leaf, the components and the harness', async () => {
    expect(BaseLayer.prototype).toBeInstanceOf(DelegatingEnv);
    expect(StageLayer.prototype).toBeInstanceOf(EnvHarness);
    expect(EnvHarness.prototype).toBeInstanceOf(DelegatingEnv);
    const h = await createHarness(
      { version: 1, env: { type: 'base', bridge: 'room', task: 'key-in-box' } },
      { bridges: fakeBridges().bridges },
    );
    expect(h).toBeInstanceOf(DelegatingEnv);
    await h.close();
  });
});
