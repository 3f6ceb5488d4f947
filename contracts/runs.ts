// Runs and episodes as they cross the wire: statuses, outcomes, the cost-aware reward's parameters
// and terms, the run's other settings (policy options, invalid-action loop limit), and the live run
// events (a discriminated union on `type`). Every closed set here is a database enum too (a test,
// server/db/contracts.test.ts, keeps them equal).
import { z } from 'zod';
import { JsonSchemaZ } from './json.ts';

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** A run or rig in one of these states changes no more. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];
export function isFinalStatus(status: string): boolean {
  return (FINAL_RUN_STATUSES as readonly string[]).includes(status);
}

export const RUN_KINDS = ['baseline', 'validation', 'rig', 'adhoc', 'audit'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const EPISODE_STATUSES = ['queued', 'running', 'done'] as const;
export type EpisodeStatus = (typeof EPISODE_STATUSES)[number];

export const EPISODE_OUTCOMES = ['success', 'failure', 'error'] as const;
export type EpisodeOutcome = (typeof EPISODE_OUTCOMES)[number];

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
export const FailureCategorySchema = z.enum(FAILURE_CATEGORIES);

/** harness: hook code, stage set-up, worker crash; policy: the policy itself threw; infra: network, env runtime. */
export const EPISODE_ERROR_KINDS = ['harness', 'policy', 'infra'] as const;
export type EpisodeErrorKind = (typeof EPISODE_ERROR_KINDS)[number];

/** The EvoHarness cost-aware reward's parameters (PAPERS.md §2). */
export const RewardParamsSchema = z.strictObject({
  /** R_succ on success. */
  success: z.number(),
  /** T_max of R_eff = max(0, 1 − |τ|/T_max). */
  tMax: z.number().positive(),
  lambdaEff: z.number(),
  lambdaDivMax: z.number(),
  /** U of the cosine annealing of λ_div. */
  annealUpdates: z.number().int().min(0),
  /** u: the RL update the run belongs to (0 for evaluation runs). */
  update: z.number().int().min(0),
  lambdaSpam: z.number(),
  lambdaInv: z.number(),
  /** R_spam is capped at this many repeats. */
  spamCap: z.number().int().min(0),
});
export type RewardParams = z.infer<typeof RewardParamsSchema>;

/**
 * The defaults. Only two are the papers' numbers: R_succ = 10 (EvoHarness-RL: "R_succ = 10 on
 * success") and λ_inv = 0.1 (EnvHarness, appendix F.1). Every other default is ours, chosen for
 * this product (T_max = the 50-step episode budget ALFWorld papers use; the rest set so that each
 * term stays below one success). DEFAULT_REWARD_SOURCES says which is which, for the studio.
 */
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

/** Where each default comes from: a paper, or `ours` (chosen here, not from a paper). */
export const DEFAULT_REWARD_SOURCES: Record<keyof RewardParams, string> = {
  success: 'EvoHarness-RL (R_succ = 10 on success)',
  tMax: 'ours (the 50-step episode budget of ALFWorld papers)',
  lambdaEff: 'ours',
  lambdaDivMax: 'ours',
  annealUpdates: 'ours',
  update: 'ours (0: an evaluation run, no RL update)',
  lambdaSpam: 'ours',
  lambdaInv: 'EnvHarness, appendix F.1',
  spamCap: 'ours',
};

/** Every term of the EvoHarness cost-aware reward, stored beside the total. */
export const CostAwareRewardSchema = z.object({
  total: z.number(),
  rSucc: z.number(),
  rEff: z.number(),
  rDiv: z.number(),
  rSpam: z.number(),
  rInv: z.number(),
  lambdaEff: z.number(),
  lambdaDiv: z.number(),
  lambdaSpam: z.number(),
  lambdaInv: z.number(),
});
export type CostAwareReward = z.infer<typeof CostAwareRewardSchema>;

/** The benchmark's own verdict on an episode. */
export const EvaluationSchema = z.object({
  success: z.boolean(),
  score: z.number(),
  metrics: z.record(z.string(), z.number()),
  /** Which rule decided success (an OpenEnv server's reward and done), when a rule did. */
  rule: z.string().optional(),
});

/** A chain's verdict per leg. */
export const LegVerdictSchema = z.object({
  leg: z.number().int(),
  success: z.boolean(),
  score: z.number().optional(),
  /**
   * Whether this leg's verdict is part of the composite's (a branch chain's verdict rule); false
   * when it is only recorded. Absent on rows written before the rule existed: it counted.
   */
  counts: z.boolean().optional(),
});
export type LegVerdict = z.infer<typeof LegVerdictSchema>;
export const LegVerdictsSchema = z.array(LegVerdictSchema);

// ─────────────────────────────── live run events ───────────────────────────────

const EpisodeStartedSchema = z.object({
  episodeId: z.string(),
  ordinal: z.number().int(),
  taskId: z.string(),
  seed: z.number().int(),
  attempt: z.number().int(),
  workerId: z.string(),
});

const EpisodeEndedSchema = z.object({
  episodeId: z.string(),
  ordinal: z.number().int(),
  taskId: z.string(),
  seed: z.number().int(),
  /** The env's reset seed when it differs from the policy's (a GRPO group); absent in old events. */
  startSeed: z.number().int().nullable().optional(),
  outcome: z.enum(EPISODE_OUTCOMES).nullable(),
  failureCategory: FailureCategorySchema.nullable(),
  errorKind: z.enum(EPISODE_ERROR_KINDS).nullable(),
  error: z.string().nullable(),
  steps: z.number().int(),
  reward: z.number().nullable(),
  durationMs: z.number().nullable(),
});
export type EpisodeEndedPayload = z.infer<typeof EpisodeEndedSchema>;

const ProgressSchema = z.object({ done: z.number().int(), total: z.number().int() });

/** A run_completed event: `done`/`total` are absent when a person cancelled the run. */
const CompletedSchema = z.object({
  status: z.enum(RUN_STATUSES),
  done: z.number().int().optional(),
  total: z.number().int().optional(),
});

/** What the rollout service writes to a run's event log, by type. */
export const RunEventBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_started'), payload: z.object({}) }),
  z.object({ type: z.literal('episode_started'), payload: EpisodeStartedSchema }),
  z.object({ type: z.literal('episode_ended'), payload: EpisodeEndedSchema }),
  z.object({ type: z.literal('run_progress'), payload: ProgressSchema }),
  z.object({ type: z.literal('run_completed'), payload: CompletedSchema }),
]);
export type RunEventBody = z.infer<typeof RunEventBodySchema>;
export type RunEventType = RunEventBody['type'];
export const RUN_EVENT_TYPES = [
  'run_started',
  'episode_started',
  'episode_ended',
  'run_progress',
  'run_completed',
] as const satisfies readonly RunEventType[];
export const RunEventTypeSchema = z.enum(RUN_EVENT_TYPES);

/** One stored event: its resumable cursor (a decimal bigint), its run, when it committed. */
export type RunEventRecord = RunEventBody & { id: string; runId: string; createdAt: string };

/**
 * The reward parameters a run stores (Run.rewardParams): the ones it overrides, nothing else. Its
 * other settings have columns of their own: `invalidLoopLimit` (an integer) and `policyOptions`.
 */
export const RunParamsSchema = RewardParamsSchema.partial();
export type RunParams = z.infer<typeof RunParamsSchema>;

/** Episode seeds are 32-bit integers (Run.seeds is an Int[] column). */
export const SEED_MIN = -2_147_483_648;
export const SEED_MAX = 2_147_483_647;

/** Consecutive invalid actions that end an episode (invalid_action_loop); Run.invalidLoopLimit. */
export const InvalidLoopLimitSchema = z.number().int().min(1);

/** What a run hands its policy (PolicyContext.options), e.g. skill tags or a skill bank id; Run.policyOptions. */
export const PolicyOptionsSchema = z.record(z.string(), JsonSchemaZ);
export type PolicyOptions = z.infer<typeof PolicyOptionsSchema>;
