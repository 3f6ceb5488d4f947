// The paper's invariants on small deterministic bridges: verifier preserved under every component,
// set-up steps not counted, components do not commute, Chain success = AND of leg verdicts,
// spec -> stack -> spec round trip, raw vs filtered records.
import { describe, expect, it } from 'vitest';
import type { Action, ActionableEnv, Evaluation } from '../../bridges/core/types.ts';
import { HarnessCodeError, InvalidSpecError, NotFoundError, StageSetupError } from '../errors.ts';
import { legSeed } from './chain.ts';
import {
  CHAIN_MODES,
  createHarness,
  type Harness,
  type HarnessNode,
  type HarnessSpec,
  type HarnessStepResult,
  harnessFromState,
} from './index.ts';
import { act, fakeBridges } from './testing/fake-bridges.ts';

const room = (task = 'key-in-box'): HarnessNode => ({ type: 'base', bridge: 'room', task });
const counter: HarnessNode = { type: 'base', bridge: 'counter', task: 'reach-5' };
const spec = (env: HarnessNode): HarnessSpec => ({ version: 1, env });
const add = (n: number): Action => ({ name: 'add', args: { n } });

const BLOCK_TAKE = `export function filterAction(action) {
  if (String(action.args.command).startsWith('take')) return { blocked: 'Taking is not allowed here.' };
}`;

/** Hooks that change everything they may change (action, transition, observation, reward). */
const BUSY_CONTRACT = `
export function filterAction(action, state) {
  if (action.args.command === 'grab key') return { name: 'act', args: { command: 'take key' } };
  return action;
}
export function modifyTransition(action, result, state) {
  return { ...result, reward: 1000, observation: { text: result.observation.text + ' [seen]' } };
}
export function filterObservation(observation, state) {
  return observation.text.toUpperCase();
}`;

async function build(s: HarnessSpec) {
  const fakes = fakeBridges();
  const harness = await createHarness(s, { bridges: fakes.bridges });
  return { harness, fakes };
}

/** Replays what actually reached the base env on a fresh raw env: the verifier must agree. */
async function rawVerdict(
  fakes: ReturnType<typeof fakeBridges>,
  bridge: 'room' | 'counter',
  taskId: string,
  seed: number,
  executed: Action[],
): Promise<Evaluation> {
  const env: ActionableEnv = await fakes[bridge].create();
  await env.reset({ taskId, seed });
  for (const a of executed) await env.step(a);
  return env.evaluate();
}

async function run(h: Harness, actions: Action[]) {
  const records = [];
  for (const a of actions) records.push((await h.step(a)).record);
  return records;
}

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

describe('Chain', () => {
  // For every mode: a run where every leg passes, and one where one leg fails.
  const scripts: Record<string, { pass: Action[]; fail: Action[]; node: HarnessNode }> = {
    sequential: {
      node: { type: 'chain', mode: 'sequential', first: room(), second: counter },
      pass: [
        act('open box'),
        act('take key'),
        act('put key in box'),
        add(3),
        add(2),
        { name: 'stop', args: {} },
      ],
      fail: [act('open box'), act('take key'), act('put key in box'), add(9)],
    },
    branch: {
      node: {
        type: 'chain',
        mode: 'branch',
        first: { type: 'stage', actions: [], env: room() },
        second: counter,
        remedial: room('hold-coin'),
      },
      pass: [
        act('open box'),
        act('take key'),
        act('put key in box'),
        add(3),
        add(2),
        { name: 'stop', args: {} },
      ],
      fail: [
        act('open box'),
        act('take key'),
        act('put key in box'),
        add(1),
        { name: 'stop', args: {} },
      ],
    },
    switch: {
      // The condition fires on "box open and something in hand", which may come before the goal.
      node: {
        type: 'chain',
        mode: 'switch',
        when: 'state.box.open && state.holding !== null',
        first: room('hold-coin'),
        second: counter,
      },
      pass: [act('open box'), act('take coin'), add(5), { name: 'stop', args: {} }],
      fail: [act('open box'), act('take key'), add(5), { name: 'stop', args: {} }],
    },
    alternate: {
      node: { type: 'chain', mode: 'alternate', first: room(), second: counter },
      pass: [
        act('open box'),
        add(2),
        act('take key'),
        add(3),
        act('put key in box'),
        { name: 'stop', args: {} },
      ],
      fail: [
        act('open box'),
        add(2),
        act('take key'),
        { name: 'stop', args: {} },
        act('put key in box'),
      ],
    },
  };

  it('covers every mode', () => {
    expect(Object.keys(scripts).sort()).toEqual([...CHAIN_MODES].sort());
  });

  for (const [mode, s] of Object.entries(scripts)) {
    it(`${mode}: success = AND of the legs' own verdicts, per-leg verdicts in info and metrics`, async () => {
      for (const [which, actions] of [
        ['pass', s.pass],
        ['fail', s.fail],
      ] as const) {
        const { harness } = await build(spec(s.node));
        await harness.reset({ seed: 0 });
        let last: HarnessStepResult | undefined;
        for (const a of actions) last = await harness.step(a);
        const ev = await harness.evaluate();
        const legs = Object.keys(ev.metrics).filter((k) => /^leg\d_success$/.test(k));
        expect(legs.length).toBe(2);
        const and = legs.every((k) => ev.metrics[k] === 1);
        expect(ev.success).toBe(and);
        expect(ev.success).toBe(which === 'pass');
        if (which === 'fail') expect(legs.some((k) => ev.metrics[k] === 1)).toBe(true);
        const info = last!.info.harness as {
          legs: { leg: number; done: boolean; success?: boolean }[];
        };
        expect(info.legs.length).toBe(s.node.type === 'chain' && s.node.remedial ? 3 : 2);
        for (const l of info.legs.filter((x) => x.done)) {
          expect(ev.metrics[`leg${l.leg}_success`]).toBe(l.success ? 1 : 0);
        }
        await harness.close();
      }
    });
  }

  it('branch: a failed first leg goes to the remedial leg, a passed one to the second', async () => {
    const node: HarnessNode = {
      type: 'chain',
      mode: 'branch',
      first: counter,
      second: room(),
      remedial: room('hold-coin'),
    };
    const failed = await build(spec(node));
    await failed.harness.reset({ seed: 0 });
    const records = await run(failed.harness, [
      add(1),
      { name: 'stop', args: {} },
      act('take coin'),
    ]);
    expect(records[1]!.changes[0]).toMatchObject({
      what: 'switch',
      note: 'env.first -> env.remedial',
    });
    expect(records[2]!.leg).toBe(2);
    expect(records[2]!.terminated).toBe(true);
    const ev = await failed.harness.evaluate();
    expect(ev.metrics).toMatchObject({ leg0_success: 0, leg2_success: 1, legs_in_play: 2 });
    expect(ev.metrics.leg1_success).toBeUndefined();
    expect(ev.success).toBe(false);

    const passed = await build(spec(node));
    await passed.harness.reset({ seed: 0 });
    const r = await run(passed.harness, [add(5), { name: 'stop', args: {} }]);
    expect(r[1]!.changes[0]).toMatchObject({ what: 'switch', note: 'env.first -> env.second' });
    expect(passed.harness.textTool()).toEqual({ name: 'act', arg: 'command' });
  });

  it('sub-env termination is masked until the last leg ends', async () => {
    const { harness } = await build(spec(scripts.sequential!.node));
    await harness.reset({ seed: 0 });
    const records = await run(harness, scripts.sequential!.pass);
    expect(records.map((r) => r.terminated)).toEqual([false, false, false, false, false, true]);
    expect(records.map((r) => r.leg)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('joins two different bridges: tools are the union, the text tool follows the active leg', async () => {
    const { harness } = await build(
      spec({
        type: 'chain',
        mode: 'sequential',
        carryContext: true,
        first: room(),
        second: counter,
      }),
    );
    await harness.reset({ seed: 0 });
    expect(
      harness
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['act', 'add', 'stop']);
    expect(harness.textTool()).toEqual({ name: 'act', arg: 'command' });
    await run(harness, [act('open box'), act('take key')]);
    const r = await harness.step(act('put key in box'));
    expect(harness.textTool()).toBeUndefined();
    expect(r.observation.text).toContain(
      '[Task 1 (put the key in the box) is set aside. Now task 2',
    );
    expect(r.observation.text).toContain('The counter shows');
    expect(r.record.changes.map((c) => c.what)).toEqual(['switch', 'banner']);
    expect(harness.task().goal).toBe('put the key in the box; then: make the counter exactly 5');
  });

  it('resets every leg deterministically from the seed', async () => {
    const { harness, fakes } = await build(
      spec({ type: 'chain', mode: 'alternate', first: room(), second: counter }),
    );
    const a = await harness.reset({ seed: 7 });
    await harness.step(act('look'));
    const b = await harness.reset({ seed: 7 });
    expect(b.observation).toEqual(a.observation);
    const counterEnv = fakes.counter.created[0]!;
    expect(counterEnv.getEnvState()).toEqual({ value: 0, target: 5, seed: legSeed(7, 1) });
    expect(legSeed(7, 1)).not.toBe(7);
    expect(legSeed(7, 1)).toBe(legSeed(7, 1));
    expect(legSeed(7, 0)).toBe(7);
  });

  it('switch: a broken condition is a harness error naming the expression', async () => {
    await expect(
      build(
        spec({
          type: 'chain',
          mode: 'switch',
          when: 'state.holding ===',
          first: room(),
          second: counter,
        }),
      ),
    ).rejects.toThrow(/chain at env: switch condition `when`: .*line 1/);
    const { harness } = await build(
      spec({
        type: 'chain',
        mode: 'switch',
        when: 'state.nothing.deeper',
        first: room(),
        second: counter,
      }),
    );
    await harness.reset({ seed: 0 });
    const err = await harness.step(act('look')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessCodeError);
    expect((err as Error).message).toMatch(
      /switch condition `when`: hook when failed: line 1, column \d+: TypeError/,
    );
  });
});

describe('spec <-> stack', () => {
  const nested: HarnessSpec = spec({
    type: 'chain',
    mode: 'branch',
    carryContext: false,
    first: {
      type: 'contract',
      code: BLOCK_TAKE,
      env: {
        type: 'stage',
        actions: [act('open box'), { name: 'act', args: { command: 'look', extra: [1, null] } }],
        env: room(),
      },
    },
    second: {
      type: 'chain',
      mode: 'switch',
      when: 'state.value > 2',
      first: counter,
      second: room('hold-coin'),
    },
    remedial: { type: 'stage', actions: [], env: room('clean-key') },
  });

  it('round-trips exactly, nested chains included', async () => {
    const { harness } = await build(nested);
    expect(harness.toSpec()).toEqual(nested);
    expect(JSON.parse(JSON.stringify(harness.toSpec()))).toEqual(
      JSON.parse(JSON.stringify(nested)),
    );
    expect(harness.spec).toEqual(nested);
    // Order is preserved: swapping stage and contract gives another spec and another stack.
    const swapped = spec({
      type: 'stage',
      actions: [act('open box')],
      env: { type: 'contract', code: BLOCK_TAKE, env: room() },
    });
    const other = await build(swapped);
    expect(other.harness.toSpec()).toEqual(swapped);
    expect(other.harness.toSpec()).not.toEqual(harness.toSpec());
  });

  it('saveState -> harnessFromState continues where it stopped', async () => {
    const { harness, fakes } = await build(nested);
    await harness.reset({ seed: 2 });
    await run(harness, [act('look')]);
    const snapshot = await harness.saveState();
    const copy = await harnessFromState(snapshot, { bridges: fakes.bridges });
    expect(copy.agentSteps).toBe(1);
    expect(copy.getEnvState()).toEqual(harness.getEnvState());
    expect(copy.observe()).toEqual(harness.observe());
  });

  it('fails at creation on unknown bridges, tasks and broken hook code', async () => {
    await expect(build(spec({ type: 'base', bridge: 'nope', task: 'x' }))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(build(spec(room('nope')))).rejects.toThrow(
      /env: unknown task 'nope' for bridge 'room'/,
    );
    const err = await build(
      spec({
        type: 'chain',
        mode: 'sequential',
        first: room(),
        second: {
          type: 'contract',
          code: 'function filterAction(a) {\n  return a +;\n}',
          env: room(),
        },
      }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessCodeError);
    expect((err as HarnessCodeError).message).toMatch(
      /^contract at env\.second: hook code does not compile/,
    );
    expect((err as HarnessCodeError).line).toBe(2);
    await expect(
      build({ version: 1, env: { type: 'chain', mode: 'branch', first: room(), second: room() } }),
    ).rejects.toBeInstanceOf(InvalidSpecError);
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
});
