// The paper's invariants on small deterministic bridges: verifier preserved under every component,
// set-up steps not counted, components do not commute, raw vs filtered records. Chain:
// chain.test.ts; spec <-> stack round trips: spec-stack.test.ts.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../bridges/core/types.ts';
import { StageSetupError } from '../errors.ts';
import { legSeed } from './chain.ts';
import type { HarnessNode } from './index.ts';
import {
  act,
  add,
  BLOCK_TAKE,
  BUSY_CONTRACT,
  build,
  counter,
  rawVerdict,
  room,
  run,
  spec,
} from './testing/engine-fixtures.ts';

describe('verifier preserved under every component', () => {
  const stage: HarnessNode = { type: 'stage', actions: [act('look')], env: room() };
  const cases: [string, HarnessNode][] = [
    ['base', room()],
    ['stage', stage],
    ['contract', { type: 'contract', code: BUSY_CONTRACT, env: room() }],
    ['contract(stage)', { type: 'contract', code: BUSY_CONTRACT, env: stage }],
    [
      'stage(contract)',
      {
        type: 'stage',
        actions: [act('look')],
        env: { type: 'contract', code: BUSY_CONTRACT, env: room() },
      },
    ],
  ];
  for (const [name, node] of cases) {
    it(`${name}: evaluate() equals the base verifier on the same transitions`, async () => {
      const { harness, fakes } = await build(spec(node));
      await harness.reset({ seed: 2 });
      const records = await run(harness, [act('open box'), act('grab key'), act('put key in box')]);
      const executed = records.map((r) => r.executedAction).filter((a): a is Action => a !== null);
      const setup =
        node.type === 'base' || (node.type === 'contract' && node.env.type === 'base')
          ? []
          : [act('look')];
      const expected = await rawVerdict(fakes, 'room', 'key-in-box', 2, [...setup, ...executed]);
      const got = await harness.evaluate();
      expect(got).toEqual(expected);
      // Rewards are the env's own, whatever modifyTransition returned.
      expect(records.every((r) => r.reward === 0 || r.reward === 1)).toBe(true);
      await harness.close();
    });
  }

  it('a hook returning another reward is ignored and the change is noted', async () => {
    const { harness } = await build(spec({ type: 'contract', code: BUSY_CONTRACT, env: room() }));
    await harness.reset({ seed: 1 });
    await harness.step(act('take key'));
    const last = await harness.step(act('put key in box'));
    expect(last.reward).toBe(1);
    expect(last.record.reward).toBe(1);
    const transition = last.record.changes.find((c) => c.what === 'transition');
    expect(transition?.note).toMatch(/reward 1000 returned by the hook was ignored \(kept 1\)/);
    expect(last.observation.text).toBe('YOU PUT THE KEY IN THE BOX. [SEEN]');
    expect(last.record.rawObservation?.text).toBe('You put the key in the box.');
    expect((await harness.evaluate()).success).toBe(true);
  });

  it('chain: per-leg metrics equal each leg’s own verifier', async () => {
    const { harness, fakes } = await build(
      spec({ type: 'chain', mode: 'sequential', first: room(), second: counter }),
    );
    await harness.reset({ seed: 4 });
    const records = await run(harness, [
      act('open box'),
      act('take key'),
      act('put key in box'),
      add(2),
    ]);
    const ev = await harness.evaluate();
    const leg0 = records.filter((r) => r.leg === 0).map((r) => r.executedAction!);
    const leg1 = records.filter((r) => r.leg === 1).map((r) => r.executedAction!);
    const raw0 = await rawVerdict(fakes, 'room', 'key-in-box', legSeed(4, 0), leg0);
    const raw1 = await rawVerdict(fakes, 'counter', 'reach-5', legSeed(4, 1), leg1);
    expect(ev.metrics.leg0_success).toBe(raw0.success ? 1 : 0);
    expect(ev.metrics.leg0_holding).toBe(raw0.metrics.holding);
    expect(ev.metrics.leg1_success).toBe(raw1.success ? 1 : 0);
    expect(ev.metrics.leg1_value).toBe(raw1.metrics.value);
  });
});

describe('Stage', () => {
  it('replays set-ups after reset without counting them as agent steps', async () => {
    const { harness, fakes } = await build(
      spec({ type: 'stage', actions: [act('take key'), act('look')], env: room() }),
    );
    const start = await harness.reset({ seed: 0 });
    expect(harness.agentSteps).toBe(0);
    // The agent sees the reset text, and the admissible commands of the staged state.
    expect(start.observation.text).toMatch(/^You are in a room/);
    expect(harness.observe().text).toBe(start.observation.text);
    expect(start.info.admissibleCommands).toContain('put key in box');
    const r = await harness.step(act('look'));
    expect(r.record.index).toBe(0);
    expect(harness.agentSteps).toBe(1);
    const env = fakes.room.created[0] as unknown as { stepCalls: number };
    expect(env.stepCalls).toBe(3);
    expect(harness.getEnvState()).toMatchObject({ holding: 'key' });
  });

  it('a rejected set-up action fails before any agent step, naming the action and the reply', async () => {
    const { harness } = await build(
      spec({ type: 'stage', actions: [act('look'), act('take unicorn')], env: room() }),
    );
    const err = await harness.reset({ seed: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageSetupError);
    const e = err as StageSetupError;
    expect(e.actionIndex).toBe(1);
    expect(e.observation).toBe('Nothing happens.');
    expect(e.message).toContain('set-up action 2 of 2 ("take unicorn")');
    expect(e.message).toContain('Nothing happens.');
    expect(harness.agentSteps).toBe(0);
  });

  it('judges a set-up step by info.invalid, not by the words of the reply', async () => {
    // A contract under the stage makes `look` read like household's rejection, yet valid; and
    // marks `open box` invalid although the box opened and the text is ordinary.
    const code = `export function modifyTransition(action, result) {
      if (action.args.command === 'look') return { ...result, observation: 'Nothing happens.' };
      if (action.args.command === 'open box') return { ...result, info: { ...result.info, invalid: true } };
    }`;
    const stack = (actions: Action[]) =>
      build(spec({ type: 'stage', actions, env: { type: 'contract', code, env: room() } }));
    const ok = await stack([act('look')]);
    await expect(ok.harness.reset({ seed: 0 })).resolves.toBeDefined();
    const bad = await stack([act('open box')]);
    const err = await bad.harness.reset({ seed: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageSetupError);
    expect((err as Error).message).toContain('the environment marked it invalid');
  });

  it('is deterministic: the same seed gives the same staged start', async () => {
    const { harness } = await build(
      spec({ type: 'stage', actions: [act('open box')], env: room() }),
    );
    const a = await harness.reset({ seed: 4 });
    const sa = harness.getEnvState();
    const b = await harness.reset({ seed: 4 });
    expect(b).toEqual(a);
    expect(harness.getEnvState()).toEqual(sa);
  });
});

describe('components do not commute', () => {
  it('Stage∘Contract ≠ Contract∘Stage when the contract blocks a set-up action', async () => {
    const setup = [act('take key')];
    // stage(contract(E)): the set-up goes through the contract, which refuses it.
    const inner = await build(
      spec({
        type: 'stage',
        actions: setup,
        env: { type: 'contract', code: BLOCK_TAKE, env: room() },
      }),
    );
    const err = await inner.harness.reset({ seed: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageSetupError);
    expect((err as Error).message).toMatch(
      /blocked by a harness layer: Taking is not allowed here/,
    );

    // contract(stage(E)): the set-up reaches the env; the agent's own take is blocked.
    const outer = await build(
      spec({
        type: 'contract',
        code: BLOCK_TAKE,
        env: { type: 'stage', actions: setup, env: room() },
      }),
    );
    await outer.harness.reset({ seed: 0 });
    expect(outer.harness.getEnvState()).toMatchObject({ holding: 'key' });
    const r = await outer.harness.step(act('take coin'));
    expect(r.record.blocked).toBe('Taking is not allowed here.');
    expect(r.record.executedAction).toBeNull();
    expect(r.record.rawObservation).toBeNull();
    expect(r.record.changes).toEqual([
      expect.objectContaining({ layer: 'env', component: 'contract', what: 'blocked' }),
    ]);
    expect(r.info.invalid).toBe(true);
  });
});

describe('records', () => {
  it('keep raw and filtered action and observation, and which layer changed what', async () => {
    const code = `export function filterAction(action) {
  if (action.args.command === 'grab key') { action.args.command = 'take key'; }
}`;
    const s = spec({
      type: 'contract',
      code: 'export function filterObservation(o) { return { text: o.text.split(".")[0] + "." }; }',
      env: { type: 'contract', code, env: room() },
    });
    const { harness } = await build(s);
    await harness.reset({ seed: 0 });
    const { record } = await harness.step(act('grab key'));
    expect(record.action).toEqual(act('grab key'));
    expect(record.executedAction).toEqual(act('take key'));
    expect(record.rawObservation?.text).toBe('You pick up the key. It feels light. Nothing else.');
    expect(record.observation.text).toBe('You pick up the key.');
    expect(record.changes).toEqual([
      {
        layer: 'env.env',
        component: 'contract',
        what: 'action',
        before: act('grab key'),
        after: act('take key'),
      },
      {
        layer: 'env',
        component: 'contract',
        what: 'observation',
        before: 'You pick up the key. It feels light. Nothing else.',
        after: 'You pick up the key.',
      },
    ]);
    expect(record.invalid).toBe(false);
  });

  it('keys the Contract does not read change nothing: such a hook plays as the identity', async () => {
    // The sandbox answers "untouched" without listing a result's or an observation's keys
    // (guest/runtime.js __resultUntouched); this pins that the steps are the identity hook's.
    const identity = `export function modifyTransition(a, r) { return r; }
export function filterObservation(o) { return o; }`;
    const extra = `export function modifyTransition(a, r) { r.extra = 1; r.observation.seen = true; return r; }
export function filterObservation(o) { o.note = 'n'; }`;
    const play = async (code: string) => {
      const { harness } = await build(spec({ type: 'contract', code, env: room() }));
      const out: unknown[] = [await harness.reset({ seed: 3 })];
      for (const a of [act('grab key'), act('take key'), act('put key in box')]) {
        out.push(await harness.step(a));
      }
      await harness.close();
      return out;
    };
    const same = await play(identity);
    expect(await play(extra)).toEqual(same);
    const steps = same.slice(1) as { record: { changes: unknown[] } }[];
    expect(steps.every((s) => s.record.changes.length === 0)).toBe(true);
  });
});
