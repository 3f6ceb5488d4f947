import { describe, expect, it } from 'vitest';
import { EnvInfraError } from '../../bridges/core/types.ts';
import { HarnessCodeError, StageSetupError } from '../errors.ts';
import { PolicyInfraError } from '../policies/types.ts';
import { runEpisodeWith } from './episode.ts';
import { MALFORMED_ACTION_NAME } from './reward.ts';
import { CounterHarness, counterDeps, counterSpec, inc, scriptedPolicy } from './testing.ts';

const base = { spec: counterSpec, seed: 0, policyId: 'test:scripted' };

describe('episode runner', () => {
  it('records a success with the verifier verdict and the cost-aware reward', async () => {
    const deps = counterDeps(scriptedPolicy([inc]));
    const r = await runEpisodeWith(deps, base);
    expect(r.outcome).toBe('success');
    expect(r.steps).toBe(3);
    expect(r.trajectory.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(r.evaluation?.success).toBe(true);
    // 10 + (1 - 3/50) + 1 verb / 3 steps, no spam cap hit: 2 repeats -> -0.2
    expect(r.reward?.total).toBeCloseTo(10 + 0.94 + 1 / 3 - 0.2, 10);
    expect(r.envReward).toBe(1);
    expect(deps.harness.closed).toBe(1);
  });

  it('ends at the step budget as step_budget_exhausted', async () => {
    const deps = counterDeps(
      scriptedPolicy([inc, { kind: 'act', action: { name: 'wait', args: {} } }]),
    );
    const r = await runEpisodeWith(deps, { ...base, maxSteps: 5, invalidLoopLimit: 100 });
    expect(r.outcome).toBe('failure');
    expect(r.failureCategory).toBe('step_budget_exhausted');
    expect(r.steps).toBe(5);
    expect(r.invalidActions).toBe(4);
  });

  it('has no invalid-action cut-off unless the run asks for one (the benchmarks have none)', async () => {
    const bad = { kind: 'invalid' as const, raw: '?', reason: 'not a tool call' };
    const r = await runEpisodeWith(counterDeps(scriptedPolicy([bad])), { ...base, maxSteps: 25 });
    expect(r).toMatchObject({ outcome: 'failure', steps: 25, invalidActions: 25 });
    // Cut off by the budget, while looping: classified as a loop by the rule, not stopped early.
    expect(r.failureCategory).toBe('invalid_action_loop');
  });

  it('resets the env with the start seed, gives the policy its own seed, records the first observation', async () => {
    const seen: number[] = [];
    const policy = {
      descriptor: { id: 'test:seeds', kind: 'scripted' as const, description: 'records its seed' },
      async start(context: { seed: number }) {
        seen.push(context.seed);
        return { act: async () => inc };
      },
    };
    const r = await runEpisodeWith(counterDeps(policy), { ...base, seed: 6, startSeed: 3 });
    expect(seen).toEqual([6]);
    expect(r.seed).toBe(6);
    expect(r.startSeed).toBe(3);
    // The counter env starts at startSeed % 2 = 1: "value 1", not "value 0" (6 % 2).
    expect(r.initialObservation).toBe('value 1');
    expect(r.steps).toBe(2);
    const plain = await runEpisodeWith(counterDeps(policy), { ...base, seed: 6 });
    expect(plain.initialObservation).toBe('value 0');
    expect(plain.startSeed).toBeUndefined();
  });

  it('classifies giving up and a wrong final state', async () => {
    const gave = await runEpisodeWith(
      counterDeps(scriptedPolicy([inc, { kind: 'give_up' }])),
      base,
    );
    expect(gave).toMatchObject({ outcome: 'failure', failureCategory: 'gave_up', steps: 1 });
    const wrong = await runEpisodeWith(
      counterDeps(scriptedPolicy([inc, { kind: 'act', action: { name: 'finish', args: {} } }])),
      base,
    );
    expect(wrong).toMatchObject({
      outcome: 'failure',
      failureCategory: 'wrong_final_state',
      steps: 2,
    });
    expect(wrong.reward?.rSucc).toBe(0);
  });

  it('records malformed decisions as invalid steps and stops an invalid-action loop', async () => {
    const bad = { kind: 'invalid' as const, raw: 'inc(', reason: 'unparseable tool call' };
    const r = await runEpisodeWith(counterDeps(scriptedPolicy([inc, bad])), {
      ...base,
      invalidLoopLimit: 3,
    });
    expect(r).toMatchObject({
      outcome: 'failure',
      failureCategory: 'invalid_action_loop',
      steps: 4,
      invalidActions: 3,
    });
    const step = r.trajectory[1];
    expect(step?.invalid).toBe(true);
    expect(step?.action.name).toBe(MALFORMED_ACTION_NAME);
    expect(step?.observation.text).toBe('Invalid action: unparseable tool call');
    expect(step?.executedAction).toBeNull();
    expect(r.reward?.rInv).toBe(3);
  });

  it('keeps harness errors apart from failures and never scores them', async () => {
    const h = new CounterHarness({
      throwOnStep: () => new HarnessCodeError('boom at line 2', 'filterAction', 2, 5),
    });
    const r = await runEpisodeWith(counterDeps(scriptedPolicy([inc]), h), base);
    expect(r.outcome).toBe('error');
    expect(r.error).toMatchObject({
      kind: 'harness',
      name: 'HarnessCodeError',
      hook: 'filterAction',
      line: 2,
    });
    expect(r.reward).toBeUndefined();
    expect(r.failureCategory).toBeUndefined();
    expect(h.closed).toBe(1);
  });

  it('classifies set-up, infra and policy errors by origin', async () => {
    const stage = counterDeps(scriptedPolicy([inc]));
    stage.harness.reset = async () => {
      throw new StageSetupError('set-up action 2 rejected', 1, 'Nothing happens.');
    };
    expect((await runEpisodeWith(stage, base)).error?.kind).toBe('harness');

    const envDown = new CounterHarness({ throwOnStep: () => new EnvInfraError('browser crashed') });
    expect(
      (await runEpisodeWith(counterDeps(scriptedPolicy([inc]), envDown), base)).error?.kind,
    ).toBe('infra');

    let closed = false;
    const rateLimited = scriptedPolicy(
      [
        inc,
        () => {
          throw new PolicyInfraError('429 after 3 retries');
        },
      ],
      { onClose: () => (closed = true) },
    );
    const r = await runEpisodeWith(counterDeps(rateLimited), base);
    expect(r).toMatchObject({
      outcome: 'error',
      steps: 1,
      error: { kind: 'infra', name: 'PolicyInfraError' },
    });
    expect(closed).toBe(true);

    const buggy = scriptedPolicy([
      () => {
        throw new TypeError('cannot read x of undefined');
      },
    ]);
    expect((await runEpisodeWith(counterDeps(buggy), base)).error).toMatchObject({
      kind: 'policy',
      name: 'TypeError',
    });
  });

  it('lets the verifier decide when the policy gives up on a solved task', async () => {
    const h = new CounterHarness({ terminateAtGoal: false });
    const r = await runEpisodeWith(
      counterDeps(scriptedPolicy([inc, inc, inc, { kind: 'give_up' }]), h),
      base,
    );
    expect(r.outcome).toBe('success');
    expect(r.steps).toBe(3);
  });

  it('is deterministic for the same seed', async () => {
    const run = (seed: number) =>
      runEpisodeWith(counterDeps(scriptedPolicy([inc])), { ...base, seed });
    const [a, b, c] = await Promise.all([run(1), run(1), run(2)]);
    expect(a?.steps).toBe(2);
    expect(strip(a)).toEqual(strip(b));
    expect(c?.steps).toBe(3);
  });
});

function strip(r: Awaited<ReturnType<typeof runEpisodeWith>> | undefined) {
  if (!r) return r;
  const { durationMs: _d, ...rest } = r;
  return rest;
}
