// Shared shapes of the rollout engine: what an episode ends as, how it is scored, what a run is.
import type { Evaluation, Json } from '../../bridges/core/types.ts';
import type { EpisodeLlm, TokenUsage } from '../../contracts/llm.ts';
import type {
  CostAwareReward,
  EpisodeErrorKind,
  EpisodeOutcome,
  FailureCategory,
  LegVerdict,
  RewardParams,
} from '../../contracts/runs.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import type { StepRecord } from '../../contracts/steps.ts';
import type { EncodedTrajectory } from './step-rows.ts';

export {
  type CostAwareReward,
  DEFAULT_REWARD_PARAMS,
  EPISODE_ERROR_KINDS,
  type EpisodeErrorKind,
  type EpisodeOutcome,
  FAILURE_CATEGORIES,
  type FailureCategory,
  type LegVerdict,
  type RewardParams,
} from '../../contracts/runs.ts';

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
  /** The policy's seed; also the env's reset seed unless `startSeed` is given. */
  seed: number;
  /** The env's reset seed (a GRPO group: one start seed, G policy seeds). */
  startSeed?: number;
  policyId: string;
  maxSteps?: number;
  rewardParams?: Partial<RewardParams>;
  /**
   * Consecutive invalid actions that end the episode as `invalid_action_loop`. Unset: no such
   * cut-off (no benchmark here has one; the run's explicit option).
   */
  invalidLoopLimit?: number;
  policyOptions?: Record<string, Json>;
  /** The run the episode belongs to (an LLM policy's auto mode remembers its fallback per run). */
  runId?: string;
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
  /** Empty when `encodedSteps` carries the steps. */
  trajectory: StepRecord[];
  /**
   * The trajectory encoded for the Step rows (step-rows.ts encodeSteps), set instead of
   * `trajectory` by the worker thread that played the episode: the host only writes it (recorder.ts).
   */
  encodedSteps?: EncodedTrajectory;
  taskId: string;
  taskType?: string;
  seed: number;
  /** Tokens the policy's steps used (LLM policies that report usage). */
  usage?: TokenUsage;
  /** An LLM policy's mode and why, with tokens by kind of step. */
  llm?: EpisodeLlm;
  /** The env's reset seed when it differs from `seed`. */
  startSeed?: number;
  /** The first observation the agent was shown (after every harness layer). */
  initialObservation?: string;
}

export { DEFAULT_MAX_STEPS } from '../../contracts/launch.ts';
