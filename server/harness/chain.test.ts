// Chain on the fake bridges: every mode passes only when every leg's verifier passes, branch picks
// by the first verdict, termination masked until the last leg, legs seeded from the episode seed.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../bridges/core/types.ts';
import { HarnessCodeError } from '../errors.ts';
import { legSeed } from './chain.ts';
import { CHAIN_MODES, type HarnessNode, type HarnessStepResult } from './index.ts';
import { act, add, build, counter, room, run, spec } from './testing/engine-fixtures.ts';

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

  it('branch verdict rule: all-legs (default) vs remedial-decides after a failed first leg', async () => {
    const node = (verdict?: 'all-legs' | 'remedial-decides'): HarnessNode => ({
      type: 'chain',
      mode: 'branch',
      first: counter,
      second: room(),
      remedial: room('hold-coin'),
      ...(verdict ? { verdict } : {}),
    });
    const play = async (n: HarnessNode, actions: Action[]) => {
      const built = await build(spec(n));
      await built.harness.reset({ seed: 0 });
      await run(built.harness, actions);
      return built.harness;
    };
    const failFirst = [add(1), { name: 'stop', args: {} }, act('take coin')];
    const byDefault = await (await play(node(), failFirst)).evaluate();
    expect(byDefault.success).toBe(false);
    expect(byDefault.metrics).toMatchObject({ leg0_counts: 1, leg2_counts: 1, leg2_success: 1 });

    const decides = await play(node('remedial-decides'), failFirst);
    const ev = await decides.evaluate();
    expect(ev.success).toBe(true);
    expect(ev.score).toBe(1);
    expect(ev.metrics).toMatchObject({
      leg0_success: 0,
      leg0_counts: 0,
      leg2_success: 1,
      leg2_counts: 1,
      legs_in_play: 2,
    });
    expect(decides.toSpec().env).toMatchObject({ verdict: 'remedial-decides' });

    // After a passed first leg the rule changes nothing: both legs count.
    const passed = await play(node('remedial-decides'), [add(5), { name: 'stop', args: {} }]);
    const p = await passed.evaluate();
    expect(p.success).toBe(false);
    expect(p.metrics).toMatchObject({ leg0_success: 1, leg0_counts: 1, leg1_counts: 1 });
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
