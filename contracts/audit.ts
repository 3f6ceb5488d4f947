// The verifier audit: can a bridge's (or a harness's) verifier tell a right answer from a wrong one?
// Per task, three probe episodes and a look at recorded ones:
//   gold      — the oracle's plan, or the shortest recorded success, must succeed;
//   empty     — a no-op policy (look / inventory, an empty answer) must not succeed;
//   perturbed — the gold sequence minus its last effective action must not succeed;
//   disagreements — episodes whose summed step reward and final verdict disagree.
// Shared by `harness audit --json`, the audit page, the task picker's mark and the run page's warning.
import { z } from 'zod';
import { HarnessSpecShapeSchema } from './spec.ts';

export const AUDIT_PROBES = ['gold', 'empty', 'perturbed'] as const;
export type AuditProbe = (typeof AUDIT_PROBES)[number];

/**
 * A probe's check: `pass` when the verifier answered as a sound one must (gold succeeded, empty
 * and perturbed did not), `fail` when it did not, `n/a` when the probe could not be played (no
 * gold known, a gold sequence with no effective action to remove).
 */
export const PROBE_STATUSES = ['pass', 'fail', 'n/a'] as const;
export type ProbeStatus = (typeof PROBE_STATUSES)[number];

export const ProbeResultSchema = z.object({
  status: z.enum(PROBE_STATUSES),
  /** The verifier's verdict on the probe episode; null when it was not played. */
  success: z.boolean().nullable(),
  score: z.number().nullable(),
  /** Summed step reward of the probe episode. */
  reward: z.number().nullable(),
  steps: z.number().int().min(0),
  /** Where a gold sequence came from: the bridge's oracle or a recorded successful episode. */
  source: z.enum(['oracle', 'recorded']).optional(),
  /** The recorded episode a gold sequence was taken from. */
  fromEpisodeId: z.string().optional(),
  /** The stored probe episode (runs of kind `audit`), for the episode viewer. */
  runId: z.string().optional(),
  episodeId: z.string().optional(),
  /** Why n/a, or what the perturbation removed. */
  note: z.string().optional(),
});
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

export const DISAGREEMENT_KINDS = ['reward_without_success', 'success_without_reward'] as const;
export type DisagreementKind = (typeof DISAGREEMENT_KINDS)[number];

/**
 * Whether an episode's summed step reward and its verifier's verdict disagree: reward was paid
 * although the verdict failed and gave no credit (score 0) — partial credit the verifier itself
 * scores, as WebShop's, is not a disagreement — or the verdict passed with no reward at all.
 */
export function rewardVerdictDisagreement(e: {
  reward: number;
  success: boolean;
  score: number;
}): DisagreementKind | undefined {
  if (!e.success && e.reward > 0 && e.score <= 0) return 'reward_without_success';
  if (e.success && e.reward <= 0) return 'success_without_reward';
  return undefined;
}

export function disagreementText(kind: DisagreementKind, reward: number): string {
  return kind === 'reward_without_success'
    ? `summed reward ${round(reward)} but the verifier says it failed (score 0)`
    : `the verifier says it succeeded but the summed reward is ${round(reward)}`;
}

function round(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

export const DisagreementSchema = z.object({
  kind: z.enum(DISAGREEMENT_KINDS),
  reward: z.number(),
  success: z.boolean(),
  score: z.number(),
  /** An audit probe, or a recorded episode of the task. */
  probe: z.enum(AUDIT_PROBES).optional(),
  runId: z.string().optional(),
  episodeId: z.string().optional(),
});
export type Disagreement = z.infer<typeof DisagreementSchema>;

export const AuditTaskSchema = z.object({
  taskId: z.string(),
  type: z.string(),
  /** The seed the probes were reset with (a recorded gold plays from its own). */
  seed: z.number().int(),
  gold: ProbeResultSchema,
  empty: ProbeResultSchema,
  perturbed: ProbeResultSchema,
  disagreements: z.array(DisagreementSchema),
  suspicious: z.boolean(),
  /** One sentence per reason the task is suspicious. */
  reasons: z.array(z.string()),
});
export type AuditTask = z.infer<typeof AuditTaskSchema>;

const CountsSchema = z.object({ pass: z.number(), fail: z.number(), na: z.number() });

export const AuditTotalsSchema = z.object({
  tasks: z.number().int(),
  gold: CountsSchema,
  empty: CountsSchema,
  perturbed: CountsSchema,
  /** Episodes (probes and recorded ones) whose reward and verdict disagree. */
  disagreements: z.number().int(),
  suspicious: z.number().int(),
});
export type AuditTotals = z.infer<typeof AuditTotalsSchema>;

export const AuditReportSchema = z.object({
  /** The stored audit (absent when not stored). */
  id: z.string().optional(),
  bridge: z.string(),
  /** A harness audit: the spec whose verifier stack was audited (its first leaf's task per task). */
  spec: HarnessSpecShapeSchema.optional(),
  split: z.string().nullable(),
  sample: z.number().int().nullable(),
  seed: z.number().int(),
  tasks: z.array(AuditTaskSchema),
  totals: AuditTotalsSchema,
  /** Task ids of the suspicious tasks. */
  suspicious: z.array(z.string()),
  /** True when no task is suspicious. */
  passed: z.boolean(),
  /** The runs holding the probe episodes, by probe. */
  runs: z.object({
    gold: z.string().optional(),
    empty: z.string().optional(),
    perturbed: z.string().optional(),
  }),
  createdAt: z.string().optional(),
  ms: z.number(),
});
export type AuditReport = z.infer<typeof AuditReportSchema>;

/** The reasons a task is suspicious, from its probes and disagreements. */
export function suspicionsOf(
  t: Pick<AuditTask, 'gold' | 'empty' | 'perturbed' | 'disagreements'>,
): string[] {
  const out: string[] = [];
  if (t.gold.status === 'fail')
    out.push('gold fails: the known winning sequence does not pass the verifier');
  if (t.empty.status === 'fail') out.push('empty passes: a no-op policy is judged a success');
  if (t.perturbed.status === 'fail')
    out.push(
      'perturbed gold passes: the verifier accepts the gold sequence without its last effective action',
    );
  if (t.disagreements.length > 0)
    out.push(
      `${t.disagreements.length} episode${t.disagreements.length === 1 ? '' : 's'} whose summed reward and verdict disagree`,
    );
  return out;
}

export function auditTotals(tasks: AuditTask[]): AuditTotals {
  const counts = (probe: AuditProbe) => ({
    pass: tasks.filter((t) => t[probe].status === 'pass').length,
    fail: tasks.filter((t) => t[probe].status === 'fail').length,
    na: tasks.filter((t) => t[probe].status === 'n/a').length,
  });
  return {
    tasks: tasks.length,
    gold: counts('gold'),
    empty: counts('empty'),
    perturbed: counts('perturbed'),
    disagreements: tasks.reduce((n, t) => n + t.disagreements.length, 0),
    suspicious: tasks.filter((t) => t.suspicious).length,
  };
}

/** The newest audit of a bridge, as the task picker and the audit page's headers show it. */
export const AuditVerdictSchema = z.object({
  id: z.string(),
  bridge: z.string(),
  passed: z.boolean(),
  suspicious: z.number().int(),
  tasks: z.number().int(),
  createdAt: z.string(),
});
export type AuditVerdict = z.infer<typeof AuditVerdictSchema>;
