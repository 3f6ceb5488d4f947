// HouseholdEnv: the ActionableEnv surface — reset text, malformed actions, dialect selection,
// truncation, reward on first success, evaluate(), state view vs schema and its narrow reads
// (getEnvStateAt), save/load, close.
import { describe, expect, it, vi } from 'vitest';
import { jsonAt } from '../core/helpers.ts';
import { validateJsonSchema } from '../core/schema.ts';
import { EnvClosedError, type Json, UnknownTaskError } from '../core/types.ts';
import { HouseholdEnv } from './env.ts';
import { householdBridge } from './index.ts';
import { oraclePlan } from './oracle.ts';
import { createRng } from './rng.ts';
import { buildScene } from './scene.ts';
import { HouseholdSim, NOTHING_HAPPENS } from './sim.ts';
import { SimView } from './sim-view.ts';
import type { HouseholdStateView } from './state.ts';
import { getCatalogue } from './tasks.ts';

const act = (command: string) => ({ name: 'act', args: { command } });
const view = (env: HouseholdEnv) => env.getEnvState() as unknown as HouseholdStateView;
const firstOf = (type: string, split = 'train') =>
  getCatalogue().tasks.find((t) => t.type === type && t.split === split)!;

async function fresh(taskId = 'train-0001', seed = 0, options?: Record<string, Json>) {
  const env = new HouseholdEnv();
  const reset = await env.reset({ taskId, seed, ...(options ? { options } : {}) });
  return { env, reset };
}

describe('reset', () => {
  it('shows the welcome line, the room and the task', async () => {
    const t = getCatalogue().byId.get('train-0001')!;
    const { env, reset } = await fresh();
    const lines = reset.observation.text.split('\n');
    expect(lines[0]).toBe('-= Welcome to TextWorld, ALFRED! =-');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(
      /^You are in the middle of a room\. Looking quickly around you, you see a .+\.$/,
    );
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe(`Your task is to: ${t.goal}.`);
    expect(env.observe().text).toBe(reset.observation.text);
    expect(reset.info.admissibleCommands).toContain('look');
    expect(
      reset.info.admissibleCommands?.every(
        (c) => c.startsWith('go to ') || ['help', 'inventory', 'look'].includes(c),
      ),
    ).toBe(true);
  });

  it('rejects unknown tasks and bad options with typed errors', async () => {
    const env = new HouseholdEnv();
    await expect(env.reset({ taskId: 'train-99999', seed: 0 })).rejects.toBeInstanceOf(
      UnknownTaskError,
    );
    await expect(
      env.reset({ taskId: 'train-0001', seed: 0, options: { dialect: 'say' } }),
    ).rejects.toThrow(/household reset options/);
  });
});

describe('step', () => {
  it('never throws on malformed actions: Nothing happens, invalid', async () => {
    const { env } = await fresh();
    const bad = [
      { name: 'jump', args: { command: 'look' } },
      { name: 'act', args: {} },
      { name: 'act', args: { command: 42 } },
      { name: 'act', args: { command: null } },
      { name: 'act', args: { command: ['look'] } },
      { name: 'act', args: null as unknown as Record<string, Json> },
      null as unknown as { name: string; args: Record<string, Json> },
      act('dance wildly'),
    ];
    for (const a of bad) {
      const r = await env.step(a);
      expect(r.observation.text).toBe(NOTHING_HAPPENS);
      expect(r.info.invalid).toBe(true);
      expect(r.reward).toBe(0);
    }
    expect((await env.evaluate()).metrics.invalidActions).toBe(bad.length);
  });

  it('look and inventory are valid and change nothing', async () => {
    const { env } = await fresh();
    const before = JSON.stringify(view(env).objects);
    expect((await env.step(act('inventory'))).observation.text).toBe(
      'You are not carrying anything.',
    );
    const look = await env.step(act('look'));
    expect(look.info.invalid).toBe(false);
    expect(JSON.stringify(view(env).objects)).toBe(before);
  });

  it('rewards 1 only on the step that first reaches the goal, then stays terminated', async () => {
    const { env } = await fresh(firstOf('pick_and_place_simple').id);
    const plan = oraclePlan(view(env));
    const rewards: number[] = [];
    for (const c of plan) rewards.push((await env.step(act(c))).reward);
    expect(rewards.at(-1)).toBe(1);
    expect(rewards.slice(0, -1).every((r) => r === 0)).toBe(true);
    const after = await env.step(act('look'));
    expect(after.reward).toBe(0);
    expect(after.terminated).toBe(true);
    expect(after.info.won).toBe(true);
  });

  it('truncates after maxSteps when not won', async () => {
    const { env } = await fresh('train-0001', 0, { maxSteps: 3 });
    expect((await env.step(act('look'))).truncated).toBe(false);
    expect((await env.step(act('look'))).truncated).toBe(false);
    const third = await env.step(act('look'));
    expect(third.truncated).toBe(true);
    expect(third.terminated).toBe(false);
  });

  it('every admissible command is valid; any other command but examine is invalid', () => {
    const rng = createRng(11);
    for (const t of getCatalogue().tasks.filter((_, i) => i % 151 === 0)) {
      const sim = new HouseholdSim(t, buildScene(t, 1), t.id.endsWith('1') ? 'put' : 'move');
      for (let i = 0; i < 30; i++) {
        const admissible = sim.admissible();
        // Probe every command built from the names around the agent, each on a copy of the state.
        const here = sim.s.recs[sim.s.agentLoc];
        const local = new Set<string>([rng.pick(sim.s.recs).name, rng.pick(sim.s.objs).name]);
        if (here) {
          local.add(here.name);
          for (const o of [...here.contents, ...here.nextTo].slice(0, 3))
            local.add(sim.s.objs[o]!.name);
        }
        const held = sim.s.objs[sim.s.holding];
        if (held) local.add(held.name);
        const probes = ['look', 'inventory'];
        for (const a of local) {
          for (const verb of ['go to', 'open', 'close', 'use', 'examine'])
            probes.push(`${verb} ${a}`);
          for (const b of local) {
            probes.push(`take ${a} from ${b}`, `move ${a} to ${b}`, `put ${a} in/on ${b}`);
            for (const verb of ['heat', 'cool', 'clean', 'slice'])
              probes.push(`${verb} ${a} with ${b}`);
          }
        }
        const saved = JSON.stringify(sim.s);
        for (const probe of probes) {
          const r = sim.exec(probe);
          // Invalid commands change nothing (tested above); undo the valid ones.
          if (!r.invalid) Object.assign(sim.s, JSON.parse(saved));
          if (probe.startsWith('examine ') && !r.invalid) continue;
          if (r.invalid !== !admissible.includes(probe)) {
            throw new Error(
              `${t.id} step ${i}: '${probe}' invalid=${r.invalid}, admissible=${admissible.includes(probe)}`,
            );
          }
        }
        for (const c of admissible)
          expect(admissible.indexOf(c), c).toBe(admissible.lastIndexOf(c));
        const command = rng.pick(admissible);
        const r = sim.exec(command);
        expect(r.invalid, `${t.id}: ${command} -> ${r.text}`).toBe(false);
      }
    }
  });
});

describe('dialect', () => {
  it('is selected by reset options or by a task id suffix', async () => {
    const t = firstOf('pick_and_place_simple');
    for (const [taskId, options] of [
      [t.id, { dialect: 'put' }],
      [`${t.id}@put`, undefined],
    ] as const) {
      const { env } = await fresh(taskId, 0, options);
      const plan = oraclePlan(view(env));
      expect(view(env).dialect).toBe('put');
      const last = plan.at(-1)!;
      expect(last).toMatch(/^put .+ in\/on .+$/);
      const r = await env.step(act(last.replace(/^put (.+) in\/on (.+)$/, 'move $1 to $2')));
      expect(r.info.invalid).toBe(true);
    }
    const task = await householdBridge.getTask(`${t.id}@put`);
    expect(task?.id).toBe(`${t.id}@put`);
    expect(task?.goal).toBe(t.goal);
    expect(await householdBridge.getTask(`${t.id}@shout`)).toBeUndefined();
  });

  it('put accepts only `put X in/on Y` unless the lenient option is on (option or @lenient)', async () => {
    const t = firstOf('pick_and_place_simple');
    const placeAs = async (taskId: string, options?: Record<string, Json>) => {
      const { env } = await fresh(taskId, 0, options);
      const plan = oraclePlan(view(env));
      for (const c of plan.slice(0, -1)) await env.step(act(c));
      const r = await env.step(act(plan.at(-1)!.replace(' in/on ', ' in ')));
      const snapshot = await env.saveState();
      return { invalid: r.info.invalid, snapshot };
    };
    expect((await placeAs(`${t.id}@put`)).invalid).toBe(true);
    expect((await placeAs(t.id, { dialect: 'put', lenientPut: true })).invalid).toBe(false);
    const lenient = await placeAs(`${t.id}@put@lenient`);
    expect(lenient.invalid).toBe(false);
    expect(lenient.snapshot.state).toMatchObject({ dialect: 'put', lenientPut: true });
  });
});

describe('evaluate', () => {
  it('counts sub-goals before success', async () => {
    const { env } = await fresh(firstOf('pick_heat_then_place_in_recep').id);
    const before = await env.evaluate();
    expect(before).toEqual({
      success: false,
      score: 0,
      metrics: { subgoalsSatisfied: 0, subgoalsTotal: 3, steps: 0, invalidActions: 0 },
    });
    const plan = oraclePlan(view(env));
    const takeAt = plan.findIndex((c) => c.startsWith('take '));
    for (const c of plan.slice(0, takeAt + 1)) await env.step(act(c));
    expect((await env.evaluate()).metrics.subgoalsSatisfied).toBe(1);
  });
});

describe('state view and snapshots', () => {
  it('the view is plain JSON matching stateSchema() and follows the world', async () => {
    const { env } = await fresh(firstOf('look_at_obj_in_light').id);
    const schema = householdBridge.stateSchema();
    expect(validateJsonSchema(schema, env.getEnvState())).toEqual([]);
    const plan = oraclePlan(view(env));
    for (const c of plan) await env.step(act(c));
    const v = view(env);
    expect(validateJsonSchema(schema, env.getEnvState())).toEqual([]);
    expect(v.won).toBe(true);
    expect(v.agent.holding).not.toBeNull();
    expect(v.objects.find((o) => o.name === v.agent.holding)?.held).toBe(true);
    expect(v.objects.find((o) => o.type === v.task.toggleType)?.on).toBe(true);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it('the view is read-only and tracks opening and taking', async () => {
    const { env } = await fresh(firstOf('pick_cool_then_place_in_recep').id);
    const plan = oraclePlan(view(env));
    const v0 = view(env);
    expect(Object.isFrozen(v0.receptacles[0])).toBe(true);
    expect(() => {
      (v0.objects as { name: string }[]).push({ name: 'x' });
    }).toThrow(TypeError);
    for (const c of plan) {
      await env.step(act(c));
      const v = view(env);
      const [verb, ...rest] = c.split(' ');
      if (verb === 'open')
        expect(v.receptacles.find((r) => r.name === rest.join(' '))?.open).toBe(true);
      if (verb === 'take') {
        const name = c.slice(5, c.indexOf(' from '));
        expect(v.agent.holding).toBe(name);
        expect(v.receptacles.some((r) => r.contents.includes(name))).toBe(false);
      }
      if (verb === 'cool')
        expect(v.objects.find((o) => o.name === v.agent.holding)?.cool).toBe(true);
      if (verb === 'go') expect(v.agent.location).toBe(rest.slice(1).join(' '));
    }
    expect(view(env).won).toBe(true);
  });

  it('the incrementally rebuilt view always equals a view built from scratch', () => {
    const rng = createRng(77);
    for (const t of getCatalogue().tasks.filter((_, i) => i % 211 === 0)) {
      const sim = new HouseholdSim(t, buildScene(t, 2), 'move');
      for (let i = 0; i < 40; i++) {
        sim.exec(rng.pick(sim.admissible()));
        const fresh = new HouseholdSim(t, structuredClone(sim.s), 'move');
        expect(sim.view(), `${t.id} step ${i}`).toEqual(fresh.view());
      }
    }
  });

  it('getEnvStateAt reads what the view holds at any path, building the world only for it', async () => {
    const built = vi.spyOn(SimView.prototype as unknown as { buildWorld(): unknown }, 'buildWorld');
    const { env } = await fresh(firstOf('pick_clean_then_place_in_recep').id);
    const plan = oraclePlan(view(env));
    const paths = [
      ['agent', 'holding'],
      ['agent', 'location'],
      ['agent'],
      ['task', 'objectType'],
      ['task', 'layout'],
      ['dialect'],
      ['steps'],
      ['invalidActions'],
      ['won'],
      ['won', 'x'],
      ['agent', 'holding', 'length'],
      ['nothing'],
      ['toString'],
      [''],
    ];
    for (const c of ['look', ...plan]) {
      await env.step(act(c));
      built.mockClear();
      const got = paths.map((p) => env.getEnvStateAt(p));
      expect(built).not.toHaveBeenCalled();
      expect(got, c).toEqual(paths.map((p) => jsonAt(env.getEnvState(), p)));
      for (const p of [['objects'], ['receptacles'], ['receptacles', '0'], []]) {
        expect(env.getEnvStateAt(p), p.join('.')).toEqual(jsonAt(env.getEnvState(), p));
      }
    }
    built.mockRestore();
  });

  it('save -> fromState -> continue equals an uninterrupted run', async () => {
    const t = firstOf('pick_two_obj_and_place');
    const { env: a } = await fresh(t.id, 9);
    const plan = oraclePlan(view(a));
    const half = Math.floor(plan.length / 2);
    for (const c of plan.slice(0, half)) await a.step(act(c));
    const snap = JSON.parse(JSON.stringify(await a.saveState()));
    const b = await householdBridge.fromState(snap);
    for (const c of plan.slice(half)) {
      const ra = await a.step(act(c));
      const rb = await b.step(act(c));
      expect(rb).toEqual(ra);
    }
    expect(b.getEnvState()).toEqual(a.getEnvState());
    expect(await b.evaluate()).toEqual(await a.evaluate());
    expect((await b.evaluate()).success).toBe(true);
  });

  it('rejects snapshots of other envs or with a broken state', async () => {
    const { env } = await fresh();
    const snap = await env.saveState();
    await expect(householdBridge.fromState({ ...snap, envType: 'toy24' })).rejects.toThrow(
      /not a household/,
    );
    await expect(householdBridge.fromState({ ...snap, state: { version: 1 } })).rejects.toThrow(
      /snapshot state/,
    );
  });

  it('close is idempotent and a closed env refuses to step', async () => {
    const { env } = await fresh();
    await env.close();
    await env.close();
    await expect(env.step(act('look'))).rejects.toBeInstanceOf(EnvClosedError);
  });
});

describe('speed', () => {
  // CPU time, not wall time: the test machine is shared, and only our own work should count.
  it('a raw step costs well under 50 µs of CPU (generous bound; measured ~2-4 µs)', async () => {
    const env = new HouseholdEnv();
    const rng = createRng(5);
    const episodes: { id: string; commands: string[] }[] = [];
    for (const t of getCatalogue().tasks.filter((_, i) => i % 50 === 0)) {
      await env.reset({ taskId: t.id, seed: 0 });
      const commands: string[] = [];
      for (let i = 0; i < 40; i++) {
        const command = rng.pick(env.admissibleCommands());
        commands.push(command);
        env.stepSync(act(command));
      }
      episodes.push({ id: t.id, commands });
    }
    let cpuUs = 0;
    let steps = 0;
    for (const e of episodes) {
      await env.reset({ taskId: e.id, seed: 0 });
      const start = process.cpuUsage();
      for (const command of e.commands) env.stepSync(act(command));
      const used = process.cpuUsage(start);
      cpuUs += used.user + used.system;
      steps += e.commands.length;
    }
    expect(cpuUs / steps).toBeLessThan(50);
  });
});
