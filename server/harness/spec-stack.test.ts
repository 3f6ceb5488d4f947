// spec -> stack -> spec round trips exactly (nested chains included), saveState -> harnessFromState
// continues where it stopped, and creation fails early on unknown bridges, tasks and broken code.
import { describe, expect, it } from 'vitest';
import { HarnessCodeError, InvalidSpecError, NotFoundError } from '../errors.ts';
import { type HarnessSpec, harnessFromState } from './index.ts';
import { act, BLOCK_TAKE, build, counter, room, run, spec } from './testing/engine-fixtures.ts';

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
