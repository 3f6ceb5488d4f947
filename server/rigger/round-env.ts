// What one round of a rig works with (round.ts, iteration.ts): its deps, settings, designer,
// the progress an earlier execution recorded, and the stop signal of the rig's job.
import type { BridgeResolver, TaskInfo } from '../../bridges/core/types.ts';
import type { Db } from '../db/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { Rollouts } from '../rollouts/service.ts';
import type { RolloutRequest } from './observe.ts';
import type { RigProgress } from './records.ts';
import { type RigSettings, roundPolicyOptions } from './settings.ts';
import type { Designer, RigConstraints } from './types.ts';

/**
 * What a rig needs: the database its rows go to, the rollout service that plays its runs, and the
 * bridges its candidates are checked against.
 */
export interface RigDeps {
  db: Db;
  rollouts: Rollouts;
  bridges: BridgeResolver;
}

/** Everything a round works with. */
export interface RoundEnv {
  deps: RigDeps;
  rigId: string;
  round: number;
  input: RigSettings;
  bridgeName: string;
  taskId: string;
  task: TaskInfo;
  baseSpec: HarnessSpec;
  designer: Designer;
  skills: string[];
  progress: RigProgress;
  say: (text: string) => void;
  signal?: AbortSignal;
}

export function constraintsOf(input: RigSettings): RigConstraints {
  return {
    band: input.band,
    ...(input.stepsBand ? { stepsBand: input.stepsBand } : {}),
    ...(input.defect ? { defect: input.defect } : {}),
  };
}

/** What every rollout of the round shares (policy, budget, options, progress, stop signal). */
export function rolloutCommon(
  env: RoundEnv,
): Omit<RolloutRequest, 'spec' | 'seeds' | 'kind' | 'runId' | 'onLaunched'> {
  const { input } = env;
  const policyOptions = roundPolicyOptions(input, env.skills);
  return {
    policy: input.policy,
    maxSteps: input.maxSteps,
    ...(policyOptions ? { policyOptions } : {}),
    ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    onProgress: env.say,
    ...(env.signal ? { signal: env.signal } : {}),
  };
}
