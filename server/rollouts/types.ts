// Shared shapes of the rollout engine: what an episode ends as, how it is scored, what a run is.
import type { Evaluation, Json } from '../../bridges/core/types.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';

export type EpisodeOutcome = 'success' | 'failure' | 'error';

export const FAILURE_CATEGORIES = [
  /** The agent used its whole step budget (or the environment truncated the episode). */
  'step_budget_exhausted',
  /** The policy stopped on its own before the budget ran out. */
  'gave_up',
  /** The episode terminated but the benchmark's verifier says the task is not done. */
  'wrong_final_state',
  /** Too many invalid actions in a row. */
  'invalid_action_loop',
] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/** harness: hook code, stage set-up, worker crash; policy: the policy itself threw; infra: network, env runtime. */
export const EPISODE_ERROR_KINDS = ['harness', 'policy', 'infra'] as const;
export type EpisodeErrorKind = (typeof EPISODE_ERROR_KINDS)[number];

export interface RewardParams {
  /** R_succ on success. */
  success: number;
  /** T_max of R_eff = max(0, 1 − |τ|/T_max). */
  tMax: number;
  lambdaEff: number;
  lambdaDivMax: number;
  /** U of the cosine annealing of λ_div. */
  annealUpdates: number;
  /** u: the RL update the run belongs to (0 for evaluation runs). */
  update: number;
  lambdaSpam: number;
  lambdaInv: number;
  /** R_spam is capped at this many repeats. */
  spamCap: number;
}

export const DEFAULT_REWARD_PARAMS: RewardParams = {
  success: 10,
  tMax: 50,
  lambdaEff: 1,
  lambdaDivMax: 1,
  annealUpdates: 150,
  update: 0,
  lambdaSpam: 0.1,
  lambdaInv: 0.1,
  spamCap: 10,
};

/** Every term of the EvoHarness cost-aware reward, stored beside the total. */
export interface CostAwareReward {
  total: number;
  rSucc: number;
  rEff: number;
  rDiv: number;
  rSpam: number;
  rInv: number;
  lambdaEff: number;
  lambdaDiv: number;
  lambdaSpam: number;
  lambdaInv: number;
}

export interface EpisodeError {
  kind: EpisodeErrorKind;
  /** The error class name, e.g. HarnessCodeError. */
  name: string;
  message: string;
  hook?: string;
  line?: number;
  column?: number;
}

export interface EpisodeInput {
  spec: HarnessSpec;
  taskId?: string;
  seed: number;
  policyId: string;
  maxSteps?: number;
  rewardParams?: Partial<RewardParams>;
  /** Consecutive invalid actions that end the episode as `invalid_action_loop`. */
  invalidLoopLimit?: number;
  policyOptions?: Record<string, Json>;
}

export interface LegVerdict {
  leg: number;
  success: boolean;
  score?: number;
}

export interface EpisodeResult {
  outcome: EpisodeOutcome;
  failureCategory?: FailureCategory;
  error?: EpisodeError;
  /** Agent steps taken (set-up steps excluded). */
  steps: number;
  invalidActions: number;
  /** Sum of the environment's per-step rewards. */
  envReward: number;
  /** The cost-aware reward; absent for errors, which are never scored. */
  reward?: CostAwareReward;
  evaluation?: Evaluation;
  legs?: LegVerdict[];
  durationMs: number;
  trajectory: StepRecord[];
  taskId: string;
  taskType?: string;
  seed: number;
}

export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_INVALID_LOOP_LIMIT = 10;
