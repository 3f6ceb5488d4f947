// The invalid-action-loop category on real scripted:household-looper episodes: trajectories
// recorded before the rule existed (fixtures/looper-trajectories.json, see record-looper.ts), and
// fresh episodes played through the runner.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBridgeRegistry } from '../../bridges/index.ts';
import { endsInInvalidLoop } from '../../contracts/outcomes.ts';
import { failureCategoryOf, runEpisode } from './episode.ts';

interface Recorded {
  policy: string;
  task: string;
  seed: number;
  outcome: string;
  steps: { command: string; observation: string; invalid: boolean }[];
}
const recorded: Recorded[] = JSON.parse(
  readFileSync(new URL('./fixtures/looper-trajectories.json', import.meta.url), 'utf8'),
).episodes;

function category(e: Recorded) {
  return failureCategoryOf({ stop: 'step_budget_exhausted', trajectory: e.steps });
}

describe('invalid-action loop on recorded looper episodes', () => {
  const byKey = new Map(recorded.map((e) => [`${e.policy} ${e.task}#${e.seed}`, e]));
  const get = (key: string) => {
    const e = byKey.get(key);
    if (!e) throw new Error(`no recorded episode ${key}`);
    return e;
  };

  it('classifies the looper that spent 33 of 50 steps on invalid actions as a loop', () => {
    const e = get('scripted:household-looper eval_seen-012#0');
    expect(e.steps.filter((s) => s.invalid)).toHaveLength(33);
    expect(e.steps.at(-1)?.observation).toBeDefined();
    expect(category(e)).toBe('invalid_action_loop');
    expect(category(get('scripted:household-looper eval_seen-010#1'))).toBe('invalid_action_loop');
  });

  it('leaves a looper failure that ended while making progress as a spent budget', () => {
    // 24 invalid steps in all, but only 3 of the last 20: it was exploring when the budget ran out.
    expect(category(get('scripted:household-looper eval_seen-063#1'))).toBe(
      'step_budget_exhausted',
    );
    expect(category(get('scripted:household-explorer eval_seen-013#0'))).toBe(
      'step_budget_exhausted',
    );
  });

  it('never calls a wrong final state or the consecutive stop anything else', () => {
    const trajectory = get('scripted:household-looper eval_seen-010#1').steps;
    expect(failureCategoryOf({ stop: 'terminated', trajectory })).toBe('wrong_final_state');
    expect(failureCategoryOf({ stop: 'invalid_action_loop', trajectory: [] })).toBe(
      'invalid_action_loop',
    );
    expect(failureCategoryOf({ stop: 'gave_up', trajectory })).toBe('invalid_action_loop');
    expect(failureCategoryOf({ stop: 'gave_up', trajectory: [] })).toBe('gave_up');
  });
});

describe('invalid-action loop on fresh looper episodes', () => {
  it('is most of the looper failures and none of the explorer failures', async () => {
    const bridges = createBridgeRegistry({ remotes: [] });
    const play = (policyId: string, task: string, seed: number) =>
      runEpisode(
        { spec: { version: 1, env: { type: 'base', bridge: 'household', task } }, seed, policyId },
        bridges,
      );
    const tasks = Array.from(
      { length: 12 },
      (_, i) => `eval_seen-${String(i + 1).padStart(3, '0')}`,
    );
    const looper = await Promise.all(tasks.map((t) => play('scripted:household-looper', t, 1)));
    const failures = looper.filter((r) => r.outcome === 'failure');
    const loops = failures.filter((r) => r.failureCategory === 'invalid_action_loop');
    expect(failures.length).toBeGreaterThan(0);
    expect(loops.length / failures.length).toBeGreaterThanOrEqual(0.5);
    for (const r of loops) expect(endsInInvalidLoop(r.trajectory.map((s) => s.invalid))).toBe(true);

    const explorer = await Promise.all(tasks.map((t) => play('scripted:household-explorer', t, 1)));
    expect(explorer.filter((r) => r.failureCategory === 'invalid_action_loop')).toHaveLength(0);
  });
});
