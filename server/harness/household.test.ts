// The paper's composition example end to end on the household bridge: chain(contract(stage(E))).
// Stage hides the mug, Contract keeps two sentences per observation and refuses `clean` unless the
// object is held, Chain appends a heat-the-potato task. Plus a household -> toy24 chain.
import { beforeAll, describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import type { HouseholdStateView } from '../../bridges/household/index.ts';
import { householdBridge, oraclePlan } from '../../bridges/household/index.ts';
import { toy24Bridge } from '../../bridges/toy24/index.ts';
import { createHarness, type Harness } from './index.ts';
import { act, findMugScene, type MugScene, mugSpec, potatoTaskId } from './testing/mug-example.ts';

const bridges = resolverOf([householdBridge, toy24Bridge]);

let scene: MugScene;
let potato: string;

beforeAll(async () => {
  scene = await findMugScene();
  potato = await potatoTaskId();
});

const view = (h: Harness) => h.getEnvState() as unknown as HouseholdStateView;

async function play(h: Harness, commands: string[]) {
  const out = [];
  for (const c of commands) out.push(await h.step(act(c)));
  return out;
}

describe('the mug example: chain(contract(stage(household)), household)', () => {
  it('stages the hidden mug before the first agent step, without counting the set-up', async () => {
    const h = await createHarness(mugSpec(scene, potato), { bridges });
    const start = await h.reset({ seed: scene.seed });
    expect(h.agentSteps).toBe(0);
    const mug = view(h).objects.find((o) => o.name === scene.mug)!;
    expect(mug.location).toBe(scene.hideIn);
    expect(view(h).receptacles.find((r) => r.name === scene.hideIn)?.open).toBe(false);
    // Two sentences of the room, the task line kept.
    expect(start.observation.text).toMatch(
      /^-= Welcome to TextWorld, ALFRED! =-\s+You are in the middle of a room\.\n\nYour task is to: /,
    );
    expect(start.info.admissibleCommands).not.toContain(`take ${scene.mug} from ${scene.from}`);
    await h.close();
  });

  it('refuses `clean` unless the object is held, and truncates observations', async () => {
    const h = await createHarness(mugSpec(scene, potato), { bridges });
    await h.reset({ seed: scene.seed });
    const [blocked, , arrive] = await play(h, [
      `clean ${scene.mug} with sinkbasin 1`,
      `go to ${scene.hideIn}`,
      `open ${scene.hideIn}`,
    ]);
    expect(blocked!.record.blocked).toBe(
      `Nothing happens. You must hold the ${scene.mug} to clean it.`,
    );
    expect(blocked!.record.executedAction).toBeNull();
    expect(blocked!.record.changes[0]).toMatchObject({
      layer: 'env.first',
      component: 'contract',
      what: 'blocked',
    });
    expect(h.agentSteps).toBe(3);
    const raw = arrive!.record.rawObservation!.text;
    const sentences = raw.match(/[^.!?]+[.!?]+/g) ?? [];
    expect(sentences.length).toBeGreaterThan(2);
    expect(arrive!.observation.text).toBe(sentences.slice(0, 2).join('').trim());
    // The third sentence ("In it, you see a mug ...") is what the contract hides.
    expect(raw).toContain(scene.mug);
    expect(arrive!.observation.text).not.toContain(scene.mug);
    expect(arrive!.record.changes).toContainEqual(
      expect.objectContaining({ layer: 'env.first', what: 'observation' }),
    );
    expect(arrive!.record.leg).toBe(0);
    await h.close();
  });

  it('a scripted run that solves both tasks succeeds, with both legs passing', async () => {
    const h = await createHarness(mugSpec(scene, potato), { bridges });
    await h.reset({ seed: scene.seed });
    const first = oraclePlan(view(h));
    expect(first).toContain(`open ${scene.hideIn}`);
    const legOne = await play(h, first);
    const switched = legOne.at(-1)!;
    expect(switched.terminated).toBe(false);
    expect(switched.record.changes.map((c) => c.what)).toEqual(
      expect.arrayContaining(['switch', 'banner']),
    );
    expect(switched.observation.text).toContain('Now task 2: ');
    expect(h.task().id).toBe(`${scene.taskId}+${potato}`);
    const second = oraclePlan(view(h));
    expect(second.some((c) => c.startsWith('heat potato'))).toBe(true);
    const legTwo = await play(h, second);
    expect(legTwo.at(-1)!.terminated).toBe(true);
    const ev = await h.evaluate();
    expect(ev.success).toBe(true);
    expect(ev.metrics).toMatchObject({ leg0_success: 1, leg1_success: 1, legs_in_play: 2 });
    expect(h.agentSteps).toBe(first.length + second.length);
    // The legs' own verifiers agree with fresh household environments replaying what reached them.
    const records = [...legOne, ...legTwo].map((r) => r.record);
    for (const [leg, taskId, seed] of [
      [0, scene.taskId, scene.seed] as const,
      [1, potato, undefined] as const,
    ]) {
      const env = await householdBridge.create();
      const legSeed = seed ?? (await import('./chain.ts')).legSeed(scene.seed, 1);
      await env.reset({ taskId, seed: legSeed });
      if (leg === 0) for (const a of scene.setup) await env.step(a);
      for (const r of records.filter((x) => x.leg === leg))
        if (r.executedAction) await env.step(r.executedAction);
      const own = await env.evaluate();
      expect(own.success).toBe(true);
      expect(ev.metrics[`leg${leg}_subgoalsSatisfied`]).toBe(own.metrics.subgoalsSatisfied);
    }
    await h.close();
  });

  it('a run that fails the second leg fails the composite, with per-leg verdicts', async () => {
    const h = await createHarness(mugSpec(scene, potato), { bridges });
    await h.reset({ seed: scene.seed });
    await play(h, oraclePlan(view(h)));
    // Place the potato without heating it.
    const plan = oraclePlan(view(h)).filter((c) => !c.startsWith('heat '));
    const last = (await play(h, plan)).at(-1)!;
    const legs = (last.info.harness as { legs: { success?: boolean }[] }).legs;
    expect(legs[0]!.success).toBe(true);
    const ev = await h.evaluate();
    expect(ev.success).toBe(false);
    expect(ev.metrics.leg0_success).toBe(1);
    expect(ev.metrics.leg1_success).toBe(0);
    await h.close();
  });
});

describe('chains across bridges', () => {
  it('household then toy24: tools are the union and the text tool follows the active leg', async () => {
    const toyTask =
      (await toy24Bridge.listTasks({})).find((t) => t.id === '1-2-3-4') ??
      (await toy24Bridge.listTasks({}))[0]!;
    const h = await createHarness(
      {
        version: 1,
        env: {
          type: 'chain',
          mode: 'sequential',
          first: { type: 'base', bridge: 'household', task: scene.taskId },
          second: { type: 'base', bridge: 'toy24', task: toyTask.id },
        },
      },
      { bridges },
    );
    await h.reset({ seed: 3 });
    const names = h.tools().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['act', ...toy24Bridge.tools().map((t) => t.name)]),
    );
    expect(h.textTool()).toEqual(householdBridge.textTool);
    await play(h, oraclePlan(view(h)));
    expect(h.textTool()).toEqual(toy24Bridge.textTool);
    expect(h.observe().text).toContain('Numbers:');
    expect((await h.evaluate()).metrics.leg0_success).toBe(1);
    await h.close();
  });
});

describe('Stage on household: set-up leaves no trace, and the intro is a stated choice', () => {
  const staged = (intro?: 'reset' | 'state', setup = scene.setup) => ({
    version: 1 as const,
    env: {
      type: 'stage' as const,
      actions: setup,
      ...(intro ? { intro } : {}),
      env: { type: 'base' as const, bridge: 'household', task: scene.taskId },
    },
  });

  it('6 set-up actions and 3 agent steps: the verifier counts 3 steps (the paper’s callback)', async () => {
    expect(scene.setup).toHaveLength(6);
    const h = await createHarness(staged(), { bridges });
    await h.reset({ seed: scene.seed });
    await play(h, ['look', 'inventory', 'take nothing from nowhere']);
    const metrics = (await h.evaluate()).metrics;
    expect(h.agentSteps).toBe(3);
    expect(metrics.steps).toBe(3);
    expect(metrics.invalidActions).toBe(1);
    expect(view(h).steps).toBe(3);
    await h.close();
  });

  it('intro "reset" (the default) keeps the reset text; "state" describes s0′', async () => {
    const plain = await createHarness(staged(), { bridges });
    const reset = await plain.reset({ seed: scene.seed });
    expect(reset.observation.text).toContain('You are in the middle of a room.');
    await plain.close();

    const h = await createHarness(staged('state'), { bridges });
    const start = await h.reset({ seed: scene.seed });
    const text = start.observation.text;
    expect(text).toMatch(/^-= Welcome to TextWorld, ALFRED! =-\n\n/);
    expect(text).not.toContain('in the middle of a room');
    expect(text).toContain(`You are facing the ${scene.hideIn}.`);
    expect(text).toContain(`The ${scene.hideIn} is closed.`);
    expect(text).toMatch(/Looking quickly around you, you see .*\./);
    expect(text).toMatch(/\n\nYour task is to: .+\.$/);
    expect(h.observe().text).toBe(text);
    expect(h.toSpec().env).toMatchObject({ type: 'stage', intro: 'state' });
    await h.close();
  });

  it('intro "state" says what the agent holds', async () => {
    const take = scene.setup.slice(0, 2);
    const h = await createHarness(staged('state', take), { bridges });
    const start = await h.reset({ seed: scene.seed });
    expect(start.observation.text).toContain(`You are facing the ${scene.from}.`);
    expect(start.observation.text).toContain(`You are carrying: a ${scene.mug}.`);
    await h.close();
  });
});
