// What a launch asks for: a run (policy × spec × tasks × seeds) and a rig (EnvRigger on one task).
// The server parses launches with these schemas and the studio's launch forms validate with the
// very same ones, so a form says inline what the server would refuse, in the same words.
import { z } from 'zod';
import { ComponentsSchema, DESIGNERS, PAPER_COMPONENTS } from './rigs.ts';
import {
  InvalidLoopLimitSchema,
  PolicyOptionsSchema,
  RewardParamsSchema,
  SEED_MAX,
  SEED_MIN,
} from './runs.ts';

/** Steps an episode may take when the launch does not say. */
export const DEFAULT_MAX_STEPS = 50;
export const MAX_RUN_STEPS = 100_000;
export const MAX_RUN_K = 100_000;
export const MAX_GROUP_SIZE = 1_000;
/**
 * Episodes at once a run may ask for. A server allows at most its ROLLOUT_MAX_CONCURRENCY; episodes
 * that only wait on a model run on its event loop, hundreds at once (server/rollouts/model-bound.ts).
 */
export const RUN_MAX_CONCURRENCY = 4096;

const SeedSchema = z.number().int().min(SEED_MIN).max(SEED_MAX);

/** A run launch's fields; parse launches with LaunchRunInputSchema (it adds the cross-field rule). */
export const LaunchRunFieldsSchema = z.object({
  /** A HarnessSpec (validated by the run service). */
  spec: z.unknown(),
  policy: z.string().min(1, 'choose a policy'),
  /** Defaults to the spec's base task. */
  taskIds: z.array(z.string().min(1)).min(1).max(1000).optional(),
  /** Seeds per task; ignored when `seeds` is given. */
  k: z.number().int().min(1).max(MAX_RUN_K).default(1),
  seeds: z.array(SeedSchema).min(1).max(MAX_RUN_K).optional(),
  /** First seed: seeds are seed, seed+1, … seed+k−1. */
  seed: SeedSchema.default(0),
  /**
   * GRPO group size G: every start seed is played G times with different policy seeds, so a
   * group's episodes share their start state. K episodes make K/G groups: start seeds seed …
   * seed+K/G−1, policy seeds seed … seed+K−1. 1 (the default): one episode per start seed.
   */
  groupSize: z.number().int().min(1).max(MAX_GROUP_SIZE).default(1),
  maxSteps: z.number().int().min(1).max(MAX_RUN_STEPS).default(DEFAULT_MAX_STEPS),
  concurrency: z.number().int().min(1).max(RUN_MAX_CONCURRENCY).optional(),
  queue: z.enum(['local', 'bullmq']).optional(),
  kind: z.enum(['baseline', 'validation', 'rig', 'adhoc']).default('adhoc'),
  harnessVersionId: z.string().optional(),
  rewardParams: RewardParamsSchema.partial().optional(),
  /**
   * Consecutive invalid actions that end an episode (invalid_action_loop). Unset (the default): no
   * such cut-off, as in ALFWorld and the papers; an explicit choice, shown on the run page.
   */
  invalidLoopLimit: InvalidLoopLimitSchema.max(10_000).optional(),
  projectId: z.string().optional(),
  createdBy: z.string().optional(),
  /** Handed to the policy (PolicyContext.options), e.g. skill tags; stored with the run's settings. */
  policyOptions: PolicyOptionsSchema.optional(),
});

/** The last seed must be a seed too: seed + K − 1 may not leave the seed range. */
export function lastSeedInRange(
  ctx: z.core.ParsePayload<{ seed: number; k: number; seeds?: number[] | undefined }>,
): void {
  const r = ctx.value;
  if (r.seeds === undefined && r.seed + r.k - 1 > SEED_MAX) {
    ctx.issues.push({
      code: 'custom',
      path: ['seed'],
      input: r.seed,
      message: `the last seed (seed + K − 1) must be at most ${SEED_MAX.toLocaleString('en-US')}`,
    });
  }
}

/** Groups need K and a first seed (not a seed list), and K a multiple of G. */
export function groupsFit(
  ctx: z.core.ParsePayload<{ k: number; groupSize: number; seeds?: number[] | undefined }>,
): void {
  const r = ctx.value;
  if (r.groupSize <= 1) return;
  if (r.seeds !== undefined) {
    ctx.issues.push({
      code: 'custom',
      path: ['groupSize'],
      input: r.groupSize,
      message: 'a group size needs K and a first seed, not a list of seeds',
    });
  } else if (r.k % r.groupSize !== 0) {
    ctx.issues.push({
      code: 'custom',
      path: ['groupSize'],
      input: r.groupSize,
      message: `the episodes (K = ${r.k}) must be a multiple of the group size (${r.groupSize}): every start seed is played ${r.groupSize} times`,
    });
  }
}

export const LaunchRunInputSchema = LaunchRunFieldsSchema.check(lastSeedInRange).check(groupsFit);

/**
 * The seeds of a run's episodes: `seed` is the policy's, `startSeed` the env's reset seed when it
 * differs (groups), episode i of K belonging to group ⌊i/G⌋ with start seed `seed + ⌊i/G⌋`.
 */
export function episodeSeeds(o: {
  seed: number;
  k: number;
  groupSize: number;
  seeds?: number[] | undefined;
}): { seed: number; startSeed: number | null }[] {
  if (o.seeds) return o.seeds.map((seed) => ({ seed, startSeed: null }));
  return Array.from({ length: o.k }, (_, i) => ({
    seed: o.seed + i,
    startSeed: o.groupSize > 1 ? o.seed + Math.floor(i / o.groupSize) : null,
  }));
}
export type LaunchRunInput = z.input<typeof LaunchRunInputSchema>;

/** A [low, high] band (success rate, or steps); the low end may not be above the high end. */
export const BandSchema = z
  .tuple([z.number().min(0), z.number().min(0)])
  .refine(([lo, hi]) => lo <= hi, 'the low end must not be above the high end');

/** A success band: rates are fractions of K, between 0 and 1. */
export const RateBandSchema = z
  .tuple([z.number().min(0).max(1), z.number().min(0).max(1)])
  .refine(([lo, hi]) => lo <= hi, 'the low end must not be above the high end');

export const RigInputSchema = z.object({
  /** `bridge:task`. */
  task: z.string().regex(/^[^:]+:.+$/, 'task must look like bridge:task'),
  policy: z.string().min(1, 'choose a policy'),
  /**
   * Unset: the policy decides (contracts/rigs.ts `defaultDesigner`): `openai:<model>` → `llm` on
   * that model and endpoint (the paper's same-model designer), scripted → `heuristic`.
   */
  designer: z.enum(DESIGNERS).optional(),
  /** What the designer may write: default Stage and Contract (paper mode); `chain` opts in. */
  components: ComponentsSchema.default([...PAPER_COMPONENTS]),
  k: z.number().int().min(1).max(100).default(5),
  maxIterations: z.number().int().min(1).max(50).default(5),
  band: RateBandSchema.default([0.4, 0.6]),
  stepsBand: BandSchema.optional(),
  defect: z.string().max(2000).optional(),
  rounds: z.number().int().min(1).max(10).default(1),
  maxSteps: z.number().int().min(1).max(10_000).default(DEFAULT_MAX_STEPS),
  /** First baseline seed; validations use fresh seeds after the baseline's. */
  seed: z.number().int().min(0).max(SEED_MAX).default(0),
  /** The start state every rollout of the rig plays, for bridges that can pin one (Bridge.pinTask). */
  scene: z.number().int().min(0).default(0),
  concurrency: z.number().int().min(1).max(64).optional(),
  /** Policy options for every rollout (e.g. skill tags); rounds add the lessons of earlier rounds. */
  policyOptions: z.record(z.string(), z.unknown()).optional(),
  /** Solvability lint before Validate: a refuted candidate launches no rollouts (off: every one runs). */
  lint: z.boolean().default(true),
  createdBy: z.string().optional(),
  projectId: z.string().optional(),
});
export type RigInput = z.input<typeof RigInputSchema>;
export type RigSettings = z.output<typeof RigInputSchema>;
