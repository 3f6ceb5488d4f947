// Whether a harness spec runs: the answer of the validation service (server/harnesses/validate.ts),
// shared by the graph editor, the create / save procedures and `harness validate --json`. A problem
// names the node it belongs to by its spec path — the names the engine gives layers (`env`,
// `env.env`, `env.first`, …) — so the editor can mark that node.
import { z } from 'zod';

/** Which check found a problem, in the order they run. */
export const VALIDATION_CHECKS = ['spec', 'resolve', 'compile', 'setup', 'dry-run'] as const;
export type ValidationCheck = (typeof VALIDATION_CHECKS)[number];

export const SpecProblemSchema = z.object({
  /** The node's spec path (`env`, `env.first.env`); `(spec)` or a top-level field otherwise. */
  path: z.string(),
  message: z.string(),
  /** 1-based, in the node's hook code (a Contract's code, a switch Chain's `when`). */
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  check: z.enum(VALIDATION_CHECKS).optional(),
});
export type SpecProblem = z.infer<typeof SpecProblemSchema>;

export const DryRunSchema = z.object({
  seed: z.number().int(),
  /** Agent steps taken after the reset (fewer when the episode ended sooner). */
  steps: z.number().int().nonnegative(),
  ms: z.number().nonnegative(),
});

export const SpecValidationSchema = z.object({
  valid: z.boolean(),
  problems: z.array(SpecProblemSchema),
  /** Present when the dry episode ran to its end without a problem. */
  dryRun: DryRunSchema.optional(),
});
export type SpecValidation = z.infer<typeof SpecValidationSchema>;

// Each segment must end at a boundary: `env.envelope` lies in `env`, not in `env.env`.
const NODE_PATH = /^env(?=$|[.[])(?:\.(?:env|first|second|remedial)(?=$|[.[]))*/;

/**
 * The node path a JSON path lies in: `env.env.actions[0].name` → `env.env`, `env.first` →
 * `env.first`; undefined for paths outside the tree (`version`, `(spec)`).
 */
export function nodePathOf(path: string): string | undefined {
  return NODE_PATH.exec(path)?.[0];
}
