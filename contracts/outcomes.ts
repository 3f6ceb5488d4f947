// Two rules that the server applies and the studio explains, declared once so both say the same:
// a run's outcome (does it have errors?) beside its status, and when a failed episode counts as an
// invalid-action loop. The studio's labels and tooltips are generated from these constants.
import { z } from 'zod';

// ─────────────────────────────── run outcome ───────────────────────────────

/**
 * What a run's finished episodes say, beside its status: `completed` alone does not tell whether
 * every episode errored. `pending`: no episode has finished yet.
 */
export const RUN_OUTCOMES = ['pending', 'clean', 'partial_errors', 'all_errors'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];
export const RunOutcomeSchema = z.enum(RUN_OUTCOMES);

export const RUN_OUTCOME_LABEL: Record<RunOutcome, string> = {
  pending: 'no episodes yet',
  clean: 'no errors',
  partial_errors: 'partial errors',
  all_errors: 'all errors',
};

/** The run's outcome from its episode counts: finished episodes and, of those, errors. */
export function runOutcome(counts: { done: number; errors: number }): RunOutcome {
  if (counts.done <= 0) return 'pending';
  if (counts.errors <= 0) return 'clean';
  return counts.errors >= counts.done ? 'all_errors' : 'partial_errors';
}

/** Whether an outcome means some episodes did not run to a verdict (shown in red). */
export function hasErrors(outcome: RunOutcome): boolean {
  return outcome === 'partial_errors' || outcome === 'all_errors';
}

// ─────────────────────────── invalid-action loop ───────────────────────────

/**
 * Consecutive invalid actions after which the runner stops an episode (Run.invalidLoopLimit): off
 * unless a run asks for it. ALFWorld has no such cut-off (only `max_nb_steps_per_episode: 50`) nor
 * do the papers; it would end an LLM agent stuck in a `Nothing happens.` loop early. The value the
 * launch form suggests when someone turns it on:
 */
export const SUGGESTED_INVALID_LOOP_LIMIT = 10;

/**
 * A failed episode that did not end on its own verdict (budget spent, policy gave up) is an
 * invalid-action loop when at least `minInvalid` of its last `window` steps were invalid. Measured
 * on scripted:household-looper (eval_seen, seeds 0–1): 100 of its 131 failures match, against 0 of
 * the explorer's and no-open's failures; no looper failure has 10 invalid steps in a row, so the
 * consecutive stop alone never fires on it.
 */
export const INVALID_LOOP_RULE = { minInvalid: 10, window: 20 } as const;

/** `invalid[i]`: step i was invalid (a malformed decision or an action the env rejected). */
export function endsInInvalidLoop(
  invalid: readonly boolean[],
  rule: { minInvalid: number; window: number } = INVALID_LOOP_RULE,
): boolean {
  let n = 0;
  for (const flag of invalid.slice(-rule.window)) if (flag) n += 1;
  return n >= rule.minInvalid;
}

/** The rule in words, for the failure chart's tooltip (built from the constants above). */
export function invalidLoopRuleText(limit?: number | null): string {
  const { minInvalid, window } = INVALID_LOOP_RULE;
  const rule = `At least ${minInvalid} of the last ${window} steps were invalid`;
  return limit
    ? `${rule}, or ${limit} invalid actions in a row stopped the episode (this run's cut-off; the benchmark has none).`
    : `${rule}.`;
}

/** The run page's line for a run with the cut-off on (null when off, the default). */
export function invalidLoopCutoffText(limit: number | null | undefined): string | null {
  return limit
    ? `Cut-off on: an episode ends after ${limit} invalid actions in a row (not part of the benchmark).`
    : null;
}
