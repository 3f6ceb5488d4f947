// Every task of every split is solvable: the oracle's plan, played through the real env, wins.
import { describe, expect, it } from 'vitest';
import type { TaskType } from './data.ts';
import { HouseholdEnv } from './env.ts';
import { OracleError, oraclePlan } from './oracle.ts';
import { createRng } from './rng.ts';
import type { HouseholdStateView } from './state.ts';
import { getCatalogue } from './tasks.ts';

const act = (command: string) => ({ name: 'act', args: { command } });
const view = (env: HouseholdEnv) => env.getEnvState() as unknown as HouseholdStateView;

/**
 * Plays the plan; returns the step index that won, or -1. Every planned command must be admissible
 * and valid. Plain checks, not expect(): this runs ~50,000 steps and must stay fast.
 */
function playPlan(env: HouseholdEnv, plan: string[]): number {
  let wonAt = -1;
  let admissible = env.admissibleCommands();
  plan.forEach((command, i) => {
    if (!admissible.includes(command)) throw new Error(`not admissible: ${command}`);
    const r = env.stepSync(act(command));
    if (r.info.invalid) throw new Error(`${command}: ${r.observation.text}`);
    if (r.reward === 1) {
      if (wonAt >= 0) throw new Error('reward 1 twice');
      wonAt = i;
    }
    if (r.terminated !== wonAt >= 0) throw new Error(`terminated ${r.terminated} at ${command}`);
    admissible = r.info.admissibleCommands ?? [];
  });
  return wonAt;
}

describe('oracle solves every task', () => {
  const { tasks } = getCatalogue();

  it('all splits, seed 0, move dialect: wins on the last planned step', async () => {
    const env = new HouseholdEnv();
    const planLengths: Record<string, number[]> = {};
    for (const t of tasks) {
      await env.reset({ taskId: t.id, seed: 0 });
      const plan = oraclePlan(view(env));
      if (playPlan(env, plan) !== plan.length - 1) throw new Error(`${t.id}: not won by ${plan}`);
      const verdict = await env.evaluate();
      if (!verdict.success || verdict.score !== 1)
        throw new Error(`${t.id}: ${JSON.stringify(verdict)}`);
      if (verdict.metrics.subgoalsSatisfied !== verdict.metrics.subgoalsTotal) {
        throw new Error(`${t.id}: sub-goals ${JSON.stringify(verdict.metrics)}`);
      }
      planLengths[t.type] = [...(planLengths[t.type] ?? []), plan.length];
    }
    // Sanity of difficulty: pick2 needs more steps than pick on average.
    const mean = (xs: number[] = []) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    expect(mean(planLengths.pick_two_obj_and_place)).toBeGreaterThan(
      mean(planLengths.pick_and_place_simple),
    );
    const types: TaskType[] = Object.keys(planLengths) as TaskType[];
    expect(types).toHaveLength(6);
  });

  it('eval splits with other seeds and the put dialect', async () => {
    const env = new HouseholdEnv();
    for (const t of tasks.filter((x) => x.split !== 'train')) {
      for (const seed of [1, 42]) {
        await env.reset({ taskId: t.id, seed, options: { dialect: 'put' } });
        const plan = oraclePlan(view(env));
        expect(plan.some((c) => c.startsWith('move '))).toBe(false);
        expect(playPlan(env, plan), `${t.id} seed ${seed}`).toBe(plan.length - 1);
      }
    }
  });

  it('replans from the middle of an episode (after random admissible moves)', async () => {
    const env = new HouseholdEnv();
    const rng = createRng(2024);
    for (const t of tasks.filter((_, i) => i % 13 === 0)) {
      await env.reset({ taskId: t.id, seed: 3 });
      for (let i = 0; i < 12; i++) {
        const r = env.stepSync(act(rng.pick(env.admissibleCommands())));
        if (r.terminated) break;
      }
      if (view(env).won) continue;
      const plan = oraclePlan(view(env));
      expect(playPlan(env, plan), t.id).toBe(plan.length - 1);
    }
  });

  it('returns an empty plan once won and reports impossible views', async () => {
    const env = new HouseholdEnv();
    const t = tasks[0]!;
    await env.reset({ taskId: t.id, seed: 0 });
    playPlan(env, oraclePlan(view(env)));
    expect(oraclePlan(view(env))).toEqual([]);
    await env.reset({ taskId: t.id, seed: 0 });
    const v = view(env);
    const stripped = { ...v, objects: v.objects.filter((o) => o.type !== v.task.objectType) };
    expect(() => oraclePlan(stripped)).toThrow(OracleError);
  });
});
