// Solvability lint: whether a harness can still be won, proved by replaying a known winning
// sequence through it (the bridge's oracle plan, re-planned from the staged start state, or a
// recorded successful episode), with findings that name the spec node and the step where a
// witness broke. Shared by `harness lint --json`, the graph editor and EnvRigger's gate.
import { z } from 'zod';
import { ActionSchema } from './spec.ts';

export const SOLVABILITY = ['proved', 'refuted', 'unknown'] as const;
export type Solvability = (typeof SOLVABILITY)[number];

/**
 * - `contract-blocks-verb`: a Contract blocked a verb (the first word of a command, else the tool
 *   name) that every known winning sequence needs;
 * - `step-limit`: a Contract ended the episode before the shortest known winning sequence could;
 * - `stage-destroys-goal`: after a Stage's set-up action the oracle finds no plan any more;
 * - `chain-unreachable`: a Chain's first leg cannot be won, so its second leg never starts (or the
 *   composite, which needs every leg's verifier, can never pass);
 * - `hook-hides-goal`: a hook's output removed the task's goal text from what the agent sees;
 * - `witness-broke`: a known winning sequence failed for a reason no rule above explains;
 * - `no-witness`: nothing to replay (no oracle plan, no recorded success).
 */
export const LINT_RULES = [
  'contract-blocks-verb',
  'step-limit',
  'stage-destroys-goal',
  'chain-unreachable',
  'hook-hides-goal',
  'witness-broke',
  'no-witness',
] as const;
export type LintRule = (typeof LINT_RULES)[number];

export const LINT_SEVERITIES = ['error', 'warning', 'info'] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

export const LintFindingSchema = z.object({
  rule: z.enum(LINT_RULES),
  severity: z.enum(LINT_SEVERITIES),
  /** The spec node the finding is about (`env`, `env.env`, `env.first` …), as the engine names layers. */
  path: z.string(),
  message: z.string(),
  /** The agent step (1 = the first) at which the witness broke; null at reset or during set-up. */
  step: z.number().int().min(1).nullable(),
  /** For a Stage finding: the set-up action (1 = the first) after which the goal was lost. */
  setupStep: z.number().int().min(1).optional(),
  /** Which known winning sequence broke: `oracle`, or `episode:<id>` for a recorded one. */
  witness: z.string().optional(),
});
export type LintFinding = z.infer<typeof LintFindingSchema>;

/** One step of a witness as the studio plays it back. */
export const WitnessStepSchema = z.object({
  action: ActionSchema,
  /** What the agent was shown after the action. */
  observation: z.string(),
  reward: z.number(),
  blocked: z.string().optional(),
  invalid: z.boolean(),
});
export type WitnessStep = z.infer<typeof WitnessStepSchema>;

export const WitnessSchema = z.object({
  source: z.enum(['oracle', 'recorded']),
  /** The recorded episode it came from. */
  episodeId: z.string().optional(),
  /** The seed the harness was reset with (and the task, when not the spec's own). */
  seed: z.number().int(),
  taskId: z.string().optional(),
  /** The agent's actions, in order: replaying them through the harness wins. */
  actions: z.array(ActionSchema),
  /** The observation at reset and each step, for playing the witness back. */
  initial: z.string(),
  trajectory: z.array(WitnessStepSchema),
});
export type Witness = z.infer<typeof WitnessSchema>;

/** What was replayed and how it ended. */
export const LintAttemptSchema = z.object({
  witness: z.string(),
  /** Actions replayed (for the oracle: executed, re-planning included). */
  steps: z.number().int().min(0),
  /** Length of the full known winning sequence (the oracle's plan from the start state). */
  planned: z.number().int().min(0).optional(),
  outcome: z.enum(['won', 'broke', 'no-plan', 'incomplete']),
  /** The agent step (1 = the first) where it broke. */
  brokeAt: z.number().int().min(1).optional(),
  reason: z.string().optional(),
});
export type LintAttempt = z.infer<typeof LintAttemptSchema>;

export const LintResultSchema = z.object({
  solvable: z.enum(SOLVABILITY),
  witness: WitnessSchema.optional(),
  findings: z.array(LintFindingSchema),
  attempts: z.array(LintAttemptSchema),
  /** Known winning sequences: the shortest one's length, when any is known. */
  shortestKnown: z.number().int().min(0).nullable(),
  seed: z.number().int(),
  ms: z.number().min(0),
});
export type LintResult = z.infer<typeof LintResultSchema>;

/** One line for people (CLI, rig feedback): the verdict and its first error finding. */
export function lintSummary(r: Pick<LintResult, 'solvable' | 'findings' | 'witness'>): string {
  const first = r.findings.find((f) => f.severity === 'error') ?? r.findings[0];
  switch (r.solvable) {
    case 'proved':
      return `solvable: proved by the ${r.witness?.source === 'recorded' ? `recorded episode ${r.witness.episodeId ?? ''}`.trim() : 'oracle plan'} (${r.witness?.actions.length ?? 0} steps)`;
    case 'refuted':
      return `unsolvable (refuted): ${first ? `${first.path}: ${first.message}` : 'every known winning sequence breaks'}`;
    case 'unknown':
      return `solvability unknown: ${first ? first.message : 'no known winning sequence'}`;
  }
}
