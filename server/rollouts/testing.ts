// A tiny deterministic counter environment and scripted policies for the rollout engine's own tests.
// Real bridges and policies are exercised in the integration tests; these isolate the runner's logic.
import type {
  Action,
  Evaluation,
  ResetResult,
  StepInfo,
  TaskInfo,
} from '../../bridges/core/types.ts';
import type { DbHandle } from '../db/index.ts';
import { NotFoundError } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';
import type { AgentSession, Policy, PolicyDecision } from '../policies/types.ts';
import { PolicyInfraError } from '../policies/types.ts';
import type { EpisodeExecutor, RolloutEngine } from './engine.ts';
import { type EpisodeDeps, type EpisodeHarness, runEpisodeWith } from './episode.ts';
import { RunEvents } from './events.ts';
import { Rollouts } from './service.ts';

export const counterSpec: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'counter', task: 'reach-3' },
};

/** Counter env: `inc` adds 1, `finish` terminates, anything else is invalid. Goal: value 3. */
export class CounterHarness implements EpisodeHarness {
  value = 0;
  closed = 0;
  steps = 0;
  constructor(
    private readonly opts: { throwOnStep?: () => Error; terminateAtGoal?: boolean } = {},
  ) {}
  async reset(o: { seed: number }): Promise<ResetResult> {
    this.value = o.seed % 2; // a seed-dependent start so determinism tests can tell seeds apart
    return { observation: { text: `value ${this.value}` }, info: {} };
  }
  async step(action: Action): Promise<Awaited<ReturnType<EpisodeHarness['step']>>> {
    const err = this.opts.throwOnStep?.();
    if (err) throw err;
    this.steps += 1;
    let invalid = false;
    let terminated = false;
    if (action.name === 'inc') this.value += 1;
    else if (action.name === 'finish') terminated = true;
    else invalid = true;
    if (this.opts.terminateAtGoal !== false && this.value === 3) terminated = true;
    const info: StepInfo = invalid ? { invalid: true } : {};
    const observation = { text: invalid ? 'Nothing happens.' : `value ${this.value}` };
    const record: StepRecord = {
      index: this.steps - 1,
      action,
      executedAction: action,
      rawObservation: observation,
      observation,
      reward: terminated && this.value === 3 ? 1 : 0,
      terminated,
      truncated: false,
      info,
      invalid,
      changes: [],
    };
    return { observation, reward: record.reward, terminated, truncated: false, info, record };
  }
  async evaluate(): Promise<Evaluation> {
    return {
      success: this.value === 3,
      score: this.value === 3 ? 1 : 0,
      metrics: { value: this.value },
    };
  }
  task(): TaskInfo {
    return { id: 'reach-3', type: 'counter', goal: 'make the value 3', split: 'test' };
  }
  tools() {
    return [{ name: 'inc', description: 'add one', parameters: { type: 'object' } }];
  }
  textTool() {
    return undefined;
  }
  async close() {
    this.closed += 1;
  }
}

/** A policy replaying a fixed list of decisions; after the list it repeats the last one. */
export function scriptedPolicy(
  decisions: (PolicyDecision | (() => PolicyDecision))[],
  hooks: { onClose?: () => void } = {},
): Policy {
  return {
    descriptor: { id: 'test:scripted', kind: 'scripted', description: 'test script' },
    async start(): Promise<AgentSession> {
      let i = 0;
      return {
        async act() {
          const d = decisions[Math.min(i, decisions.length - 1)];
          i += 1;
          if (!d) return { kind: 'give_up' };
          return typeof d === 'function' ? d() : d;
        },
        async close() {
          hooks.onClose?.();
        },
      };
    },
  };
}

export const inc: PolicyDecision = { kind: 'act', action: { name: 'inc', args: {} } };

export function counterDeps(
  policy: Policy,
  harness = new CounterHarness(),
): EpisodeDeps & { harness: CounterHarness } {
  return { harness, createHarness: async () => harness, getPolicy: () => policy };
}

/** An in-process engine over the counter env; policies `test:inc`, `test:giveup`, `test:infra`. */
export function counterEngine(
  opts: { delayMs?: number } = {},
): RolloutEngine & { executed: number } {
  const policies: Record<string, () => Policy> = {
    'test:inc': () => scriptedPolicy([inc]),
    'test:giveup': () => scriptedPolicy([inc, { kind: 'give_up' }]),
    // Seeded: wastes (seed % 3) invalid `wait` steps before counting up, so policy seeds differ.
    'test:seeded': () => ({
      descriptor: { id: 'test:seeded', kind: 'scripted', description: 'seeded waits' },
      async start(context) {
        let waits = context.seed % 3;
        return {
          act: async () => {
            if (waits <= 0) return inc;
            waits -= 1;
            return { kind: 'act', action: { name: 'wait', args: {} } };
          },
        };
      },
    }),
    'test:infra': () =>
      scriptedPolicy([
        inc,
        () => {
          throw new PolicyInfraError('endpoint unreachable');
        },
      ]),
  };
  const engine = {
    executed: 0,
    async validate(_spec: HarnessSpec, policyId: string) {
      if (!policies[policyId]) throw new NotFoundError(`policy '${policyId}' not found`);
    },
    executor(): EpisodeExecutor {
      return {
        async run(input) {
          engine.executed += 1;
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          const make = policies[input.policyId];
          if (!make) throw new NotFoundError(input.policyId);
          return runEpisodeWith(
            { createHarness: async () => new CounterHarness(), getPolicy: make },
            input,
          );
        },
        async close() {},
      };
    },
  };
  return engine;
}

/** A rollout service on a test database and engine (each test its own; close() it after). */
export function testRollouts(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  engine: RolloutEngine,
  o: { concurrency?: number; redisUrl?: string; queueName?: string } = {},
): Rollouts {
  return new Rollouts({
    db: handle.db,
    dbKind: handle.kind,
    engine,
    events: new RunEvents(handle.db, o.redisUrl),
    concurrency: o.concurrency ?? 2,
    ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
    ...(o.queueName ? { queueName: o.queueName } : {}),
  });
}
