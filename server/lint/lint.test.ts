// Solvability lint on real bridges (household, toy24) and the engine's fake room bridge (no oracle).
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import type { Action } from '../../bridges/core/types.ts';
import { householdBridge } from '../../bridges/household/index.ts';
import { toy24Bridge } from '../../bridges/toy24/index.ts';
import { LintResultSchema } from '../../contracts/lint.ts';
import type { HarnessSpec } from '../harness/index.ts';
import { act, fakeBridges } from '../harness/testing/fake-bridges.ts';
import { findMugScene } from '../harness/testing/mug-example.ts';
import { budgetContract } from '../rigger/designers/heuristic/common.ts';
import { lintSpec } from './lint.ts';

const bridges = resolverOf([householdBridge, toy24Bridge, fakeBridges().room]);

const base = (bridge: string, task: string) => ({ type: 'base' as const, bridge, task });
const spec = (env: HarnessSpec['env']): HarnessSpec => ({ version: 1, env });

async function firstTask(type: string): Promise<string> {
  const task = (await householdBridge.listTasks({ split: 'eval_seen', type }))[0];
  if (!task) throw new Error(`no ${type} task`);
  return task.id;
}

const BLOCK_TAKE = `export function filterAction(action) {
  if (/^take /.test(String(action.args.command ?? ''))) return { blocked: 'Taking things is not allowed here.' };
  return action;
}`;

describe('lint: proof by replay', () => {
  it('proves the bare household task with the oracle plan as witness', async () => {
    const task = await firstTask('pick_and_place_simple');
    const r = LintResultSchema.parse(await lintSpec(spec(base('household', task)), { bridges }));
    expect(r.solvable).toBe('proved');
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.witness?.source).toBe('oracle');
    expect(r.witness?.actions.length).toBeGreaterThan(1);
    // The witness is playable: each step with what the agent saw, the last one rewarded.
    expect(r.witness?.trajectory).toHaveLength(r.witness?.actions.length ?? -1);
    expect(r.witness?.trajectory.at(-1)?.reward).toBe(1);
    expect(r.witness?.initial).toContain('Your task is to:');
  });

  it('refutes a Contract that blocks `take` on a pick task, naming the node and the step', async () => {
    const task = await firstTask('pick_and_place_simple');
    const r = await lintSpec(
      spec({ type: 'contract', code: BLOCK_TAKE, env: base('household', task) }),
      { bridges },
    );
    expect(r.solvable).toBe('refuted');
    expect(r.witness).toBeUndefined();
    const f = r.findings.find((x) => x.rule === 'contract-blocks-verb');
    expect(f).toMatchObject({ severity: 'error', path: 'env', witness: 'oracle' });
    expect(f?.message).toContain('"take"');
    expect(f?.message).toMatch(/every known winning sequence needs "take"/);
    // The step is the oracle's first take: the actions before it were walks and opens.
    const before = r.attempts[0]?.brokeAt ?? 0;
    expect(f?.step).toBe(before);
    expect(before).toBeGreaterThanOrEqual(1);
  });

  it('refutes the same block written as a declarative rule, and proves a harmless rule', async () => {
    const task = await firstTask('pick_and_place_simple');
    const blockTake = { kind: 'block', pattern: '^take ', reason: 'Your hands are full.' } as const;
    const r = await lintSpec(
      spec({ type: 'contract', rules: [blockTake], env: base('household', task) }),
      { bridges },
    );
    expect(r.solvable).toBe('refuted');
    const f = r.findings.find((x) => x.rule === 'contract-blocks-verb');
    expect(f).toMatchObject({ severity: 'error', path: 'env', witness: 'oracle' });
    expect(f?.message).toContain('(the Contract answered: "Your hands are full.")');
    const hint = { kind: 'feedback', text: ' (think first)', to: 'append' } as const;
    const ok = await lintSpec(
      spec({ type: 'contract', rules: [hint], env: base('household', task) }),
      { bridges },
    );
    expect(ok.solvable).toBe('proved');
  });

  it('proves a Stage that hides the mug in a closed cabinet by an oracle re-plan that opens it', async () => {
    const scene = await findMugScene();
    const staged = spec({
      type: 'stage',
      actions: scene.setup,
      env: base('household', scene.taskId),
    });
    const r = await lintSpec(staged, { bridges, seed: scene.seed });
    expect(r.solvable).toBe('proved');
    const lines = r.witness?.actions.map((a) => String(a.args.command)) ?? [];
    expect(lines).toContain(`open ${scene.hideIn}`);
    expect(lines).toContain(`take ${scene.mug} from ${scene.hideIn}`);
    // The same spec's witness replays: a Stage is not an agent step.
    expect(lines[0]).not.toBe(scene.setup[0]?.args.command);
  });

  it('replays recorded successes: a recorded sequence broken by the Stage does not refute what the oracle proves', async () => {
    const scene = await findMugScene();
    // What an agent did on the unstaged scene: take the mug where it stood.
    const env = await householdBridge.create();
    await env.reset({ taskId: scene.taskId, seed: scene.seed });
    const plan = (await env.solve?.()) ?? [];
    await env.close();
    const r = await lintSpec(
      spec({ type: 'stage', actions: scene.setup, env: base('household', scene.taskId) }),
      {
        bridges,
        seed: scene.seed,
        recorded: [{ episodeId: 'ep1', seed: scene.seed, actions: plan }],
      },
    );
    expect(r.solvable).toBe('proved');
    expect(r.witness?.source).toBe('oracle');
  });

  it('refutes a step-limit Contract shorter than the shortest known winning sequence', async () => {
    const task = await firstTask('pick_two_obj_and_place');
    const bare = await lintSpec(spec(base('household', task)), { bridges });
    const need = bare.witness?.actions.length ?? 0;
    expect(need).toBeGreaterThan(4);
    const tight = await lintSpec(
      spec({ type: 'contract', code: budgetContract(need - 2), env: base('household', task) }),
      { bridges },
    );
    expect(tight.solvable).toBe('refuted');
    const f = tight.findings.find((x) => x.rule === 'step-limit');
    expect(f).toMatchObject({ severity: 'error', path: 'env', step: need - 2 });
    expect(f?.message).toContain(`the shortest known winning sequence needs ${need}`);
    // The same limit at the witness's length still lets it win.
    const exact = await lintSpec(
      spec({ type: 'contract', code: budgetContract(need), env: base('household', task) }),
      { bridges },
    );
    expect(exact.solvable).toBe('proved');
  });

  it('names the Stage set-up action that consumes the goal (toy24)', async () => {
    // 4 7 8 8 is solvable (e.g. (7 - 8 / 8) * 4); after 8 + 8, the numbers 4 7 16 cannot make 24.
    const setup: Action[] = [
      { name: 'combine', args: { a: 8, op: '+', b: 8 } },
      { name: 'combine', args: { a: 16, op: '*', b: 7 } },
    ];
    const r = await lintSpec(
      spec({ type: 'stage', actions: setup, env: base('toy24', '4-7-8-8') }),
      { bridges },
    );
    expect(r.solvable).toBe('refuted');
    const f = r.findings.find((x) => x.rule === 'stage-destroys-goal');
    expect(f).toMatchObject({ severity: 'error', path: 'env', setupStep: 1 });
    expect(f?.message).toContain('"combine(a=8, op=+, b=8)"');
  });

  it('flags a Chain whose first leg cannot be won', async () => {
    const task = await firstTask('pick_and_place_simple');
    const second = await firstTask('look_at_obj_in_light');
    const r = await lintSpec(
      spec({
        type: 'chain',
        mode: 'branch',
        first: { type: 'contract', code: BLOCK_TAKE, env: base('household', task) },
        second: base('household', second),
        remedial: base('household', second),
      }),
      { bridges },
    );
    expect(r.solvable).toBe('refuted');
    expect(r.findings.map((f) => [f.rule, f.path])).toEqual(
      expect.arrayContaining([
        ['contract-blocks-verb', 'env.first'],
        ['chain-unreachable', 'env'],
      ]),
    );
  });

  it('proves a solvable Chain by re-planning each leg', async () => {
    const task = await firstTask('pick_and_place_simple');
    const second = await firstTask('look_at_obj_in_light');
    const r = await lintSpec(
      spec({
        type: 'chain',
        mode: 'sequential',
        first: base('household', task),
        second: base('household', second),
      }),
      { bridges },
    );
    expect(r.solvable).toBe('proved');
    expect(r.attempts[0]?.outcome).toBe('won');
  });

  it('refutes a hook that removes the goal from the observation', async () => {
    const task = await firstTask('pick_and_place_simple');
    const code = `export function filterObservation(o) { return o.text.split('Your task is to:')[0]; }`;
    const r = await lintSpec(spec({ type: 'contract', code, env: base('household', task) }), {
      bridges,
    });
    expect(r.solvable).toBe('refuted');
    expect(r.findings.find((f) => f.rule === 'hook-hides-goal')).toMatchObject({
      path: 'env',
      step: null,
      severity: 'error',
    });
  });

  it('without an oracle: a recorded success proves it; nothing known is unknown', async () => {
    const bare = spec(base('room', 'key-in-box'));
    const none = await lintSpec(bare, { bridges });
    expect(none.solvable).toBe('unknown');
    expect(none.findings.map((f) => f.rule)).toEqual(['no-witness']);
    const recorded = [
      {
        episodeId: 'long',
        seed: 0,
        actions: [act('look'), act('take key'), act('open box'), act('put key in box')],
      },
      {
        episodeId: 'short',
        seed: 0,
        actions: [act('take key'), act('open box'), act('put key in box')],
      },
    ];
    const r = await lintSpec(bare, { bridges, recorded });
    expect(r.solvable).toBe('proved');
    expect(r.witness).toMatchObject({ source: 'recorded', episodeId: 'short' });
    const blocked = await lintSpec(
      spec({ type: 'contract', code: BLOCK_TAKE, env: base('room', 'key-in-box') }),
      { bridges, recorded },
    );
    expect(blocked.solvable).toBe('refuted');
    expect(blocked.findings[0]).toMatchObject({
      rule: 'contract-blocks-verb',
      witness: 'episode:short',
      step: 1,
    });
  });
});
