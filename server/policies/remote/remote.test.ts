// The remote bridge inside the product: scripted policies play it, and Stage / Contract / Chain
// wrap it through the harness engine like any local bridge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../../bridges/core/types.ts';
import { bridgeNames, getBridge } from '../../../bridges/index.ts';
import {
  createRemoteBridge,
  type ReferenceServer,
  startReferenceServer,
} from '../../../bridges/remote/index.ts';
import { createHarness, type HarnessNode } from '../../harness/index.ts';
import { getPolicy, listPolicies } from '../index.ts';
import { play } from '../testing/play.ts';

let server: ReferenceServer;
let bridge: Bridge;
const bridges = {
  get: async (name: string) => (name === 'remote' ? bridge : getBridge(name)),
  names: bridgeNames,
};
const base: HarnessNode = { type: 'base', bridge: 'remote', task: '1-2-3-4' };
const combine = (a: number | string, op: string, b: number | string) => ({
  name: 'combine',
  args: { a, op, b },
});

beforeAll(async () => {
  server = await startReferenceServer();
  bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
});
afterAll(() => server.close());

describe('scripted policies on the remote bridge', () => {
  it('are listed for remote; exact solves and greedy fails where it must', async () => {
    const ids = listPolicies('remote').map((d) => d.id);
    expect(ids).toEqual(
      expect.arrayContaining(['scripted:remote-exact', 'scripted:remote-greedy']),
    );
    const exact = await play(bridge, getPolicy('scripted:remote-exact'), {
      taskId: '3-3-8-8',
      seed: 1,
    });
    expect(exact.success).toBe(true);
    // 8 / (3 - 8/3) needs a fraction far from 24: the greedy player's named weakness.
    const greedy = await play(bridge, getPolicy('scripted:remote-greedy'), {
      taskId: '3-3-8-8',
      seed: 1,
    });
    expect(greedy.success).toBe(false);
  });
});

describe('remote under the harness engine', () => {
  it('Stage replays set-up moves on the remote episode without counting them', async () => {
    const h = await createHarness(
      { version: 1, env: { type: 'stage', actions: [combine(1, '*', 2)], env: base } },
      { bridges },
    );
    await h.reset({ seed: 0 });
    expect(h.agentSteps).toBe(0);
    expect(h.getEnvState()).toMatchObject({ numbers: ['3', '4', '2'] });
    await h.step(combine(2, '*', 3));
    const last = await h.step(combine(6, '*', 4));
    expect(last.terminated).toBe(true);
    expect(await h.evaluate()).toMatchObject({ success: true });
    expect(h.agentSteps).toBe(2);
    await h.close();
  });

  it('Contract blocks multiplication before it reaches the server', async () => {
    const code = `export function filterAction(action) {
      if (action.args.op === '*') return { blocked: 'Multiplication is disabled here.' };
    }`;
    const h = await createHarness(
      { version: 1, env: { type: 'contract', code, env: base } },
      { bridges },
    );
    await h.reset({ seed: 0 });
    const r = await h.step(combine(1, '*', 2));
    expect(r.observation.text).toContain('Multiplication is disabled here.');
    expect(r.record.executedAction).toBeNull();
    expect(h.getEnvState()).toMatchObject({ numbers: ['1', '2', '3', '4'] });
    await h.close();
  });

  it('Chain runs a remote leg then a local toy24 leg; success needs both verdicts', async () => {
    const h = await createHarness(
      {
        version: 1,
        env: {
          type: 'chain',
          mode: 'sequential',
          first: base,
          second: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
        },
      },
      { bridges },
    );
    await h.reset({ seed: 0 });
    for (const a of [combine(1, '*', 2), combine(2, '*', 3), combine(6, '*', 4)]) await h.step(a);
    expect(h.getEnvState()).toMatchObject({ task: '1-2-3-4' });
    await h.step(combine(1, '+', 2));
    await h.step(combine(3, '+', 3));
    const last = await h.step(combine(6, '*', 4));
    expect(last.terminated).toBe(true);
    const verdict = await h.evaluate();
    expect(verdict.success).toBe(true);
    expect(verdict.metrics).toMatchObject({ leg0_success: 1, leg1_success: 1 });
    await h.close();
  });
});
