// The household templates with a knob, played through the real engine: a glance that misses
// objects, a partial room description, a loop scaffold that lets some retries through.
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../../../bridges/core/capabilities.ts';
import { type HouseholdStateView, householdBridge } from '../../../../bridges/household/index.ts';
import { compileHooks, createHarness } from '../../../harness/index.ts';
import { composeSpec } from './common.ts';
import {
  glanceContract,
  householdStructurals,
  partialRoomContract,
  redirectOpenContract,
  skipRepeatsContract,
  slipperyContract,
  TRUNCATE_RULES,
} from './household.ts';

const bridges = resolverOf([householdBridge]);
const act = (command: string) => ({ name: 'act', args: { command } });
const TASK = 'train-0001@scene0';

async function withContract(code: string, seed = 0) {
  const h = await createHarness(
    {
      version: 1,
      env: { type: 'contract', code, env: { type: 'base', bridge: 'household', task: TASK } },
    },
    { bridges },
  );
  const start = await h.reset({ seed });
  return { h, start };
}

/** A receptacle of the start state with at least two objects in plain sight. */
async function busySurface(): Promise<string> {
  const env = await householdBridge.create();
  await env.reset({ taskId: TASK, seed: 0 });
  const view = env.getEnvState() as unknown as HouseholdStateView;
  await env.close();
  const r = view.receptacles.find((x) => !x.openable && x.contents.length >= 2);
  if (!r) throw new Error('no receptacle with two objects');
  return r.name;
}

describe('household templates with a knob', () => {
  it('compile', async () => {
    for (const code of [
      glanceContract(0.4),
      partialRoomContract(0.5),
      skipRepeatsContract(2),
      slipperyContract(0.3),
      redirectOpenContract(0.5),
    ])
      await expect(compileHooks(code)).resolves.toBeDefined();
  });

  it('glance: shows nothing at 0, everything at 1, and examine always lists all', async () => {
    const place = await busySurface();
    const none = await withContract(glanceContract(0));
    const arrive = await none.h.step(act(`go to ${place}`));
    expect(arrive.observation.text).toBe(
      `You arrive at ${place}. On the ${place}, you see nothing.`,
    );
    expect(arrive.record.rawObservation?.text).not.toContain('you see nothing');
    const examined = await none.h.step(act(`examine ${place}`));
    expect(examined.observation.text).toBe(examined.record.rawObservation?.text);
    await none.h.close();
    const all = await withContract(glanceContract(1));
    const full = await all.h.step(act(`go to ${place}`));
    expect(full.observation.text).toBe(full.record.rawObservation?.text);
    await all.h.close();
  });

  it('partial room: the description lists fewer receptacles, the admissible commands all of them', async () => {
    const plain = await householdBridge.create();
    const reset = await plain.reset({ taskId: TASK, seed: 3 });
    await plain.close();
    const count = (text: string) =>
      (/Looking quickly around you, you see (.+?)\.\n/.exec(text)?.[1] ?? '').split(', ').length;
    const { h, start } = await withContract(partialRoomContract(0.3), 3);
    expect(count(start.observation.text)).toBeLessThan(count(reset.observation.text));
    expect(count(start.observation.text)).toBeGreaterThanOrEqual(1);
    expect(start.info.admissibleCommands).toEqual(reset.info.admissibleCommands);
    await h.close();
  });

  it('skip-repeated-failures lets `allowed` retries through, then turns the command into look', async () => {
    const { h } = await withContract(skipRepeatsContract(2));
    const texts = [];
    for (let i = 0; i < 5; i++) texts.push((await h.step(act('take nothing from nowhere'))).record);
    expect(texts.map((r) => (r.executedAction?.args.command as string) ?? '')).toEqual([
      'take nothing from nowhere',
      'take nothing from nowhere',
      'take nothing from nowhere',
      'look',
      'look',
    ]);
    await h.close();
  });

  it('slippery hands: every take slips at 1 (the state stays), none at 0', async () => {
    const env = await householdBridge.create();
    await env.reset({ taskId: TASK, seed: 0 });
    const view = env.getEnvState() as unknown as HouseholdStateView;
    await env.close();
    const r = view.receptacles.find((x) => !x.openable && x.contents.length > 0);
    const o = r ? view.objects.find((x) => x.location === r.name && x.pickable) : undefined;
    if (!r || !o) throw new Error('no object in plain sight');
    const slips = await withContract(slipperyContract(1));
    await slips.h.step(act(`go to ${r.name}`));
    const slipped = await slips.h.step(act(`take ${o.name} from ${r.name}`));
    expect(slipped.record.blocked).toBe(`The ${o.name} slips from your hands.`);
    expect(slipped.record.executedAction).toBeNull();
    expect((slips.h.getEnvState() as unknown as HouseholdStateView).agent.holding).toBeNull();
    await slips.h.close();
    const firm = await withContract(slipperyContract(0));
    await firm.h.step(act(`go to ${r.name}`));
    const taken = await firm.h.step(act(`take ${o.name} from ${r.name}`));
    expect(taken.observation.text).toBe(`You pick up the ${o.name} from the ${r.name}.`);
    await firm.h.close();
  });
});

describe('templates written as declarative rules', () => {
  it('truncate-observations is a rule, and cuts as the hook code it replaced did', async () => {
    const [truncate] = householdStructurals(
      { task: { type: 'pick_and_place_simple' } } as Parameters<typeof householdStructurals>[0],
      'mastered',
      'harder',
    ).slice(-1);
    const made = await truncate!({} as never, {} as never);
    const spec = composeSpec(
      { version: 1, env: { type: 'base', bridge: 'household', task: TASK } },
      made!.plan,
    );
    expect(spec.env).toEqual({
      type: 'contract',
      rules: TRUNCATE_RULES,
      env: { type: 'base', bridge: 'household', task: TASK },
    });
    const h = await createHarness(spec, { bridges });
    const start = await h.reset({ seed: 0 });
    const raw = await householdBridge.create();
    const rawStart = await raw.reset({ taskId: TASK, seed: 0 });
    const [body, ...rest] = rawStart.observation.text.split('\n\nYour task is to:');
    const kept = (body!.match(/[^.!?]+[.!?]+/g) ?? [body!]).slice(0, 2).join('').trim();
    expect(start.observation.text).toBe(`${kept}\n\nYour task is to:${rest.join('')}`);
    expect(start.observation.text.length).toBeLessThan(rawStart.observation.text.length);
    await raw.close();
    await h.close();
  });
});
