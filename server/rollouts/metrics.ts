// Run metrics computed from stored episodes. Errors (harness / policy / infra) are excluded from the
// success rate and the step means — they are counted apart, never as reward 0 or as failures.
import {
  EPISODE_ERROR_KINDS,
  type EpisodeErrorKind,
  type EpisodeOutcome,
  FAILURE_CATEGORIES,
  type FailureCategory,
} from './types.ts';

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Wilson score interval for k successes out of n; [0, 1] when n = 0 (nothing known). */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

export interface EpisodeForMetrics {
  outcome: EpisodeOutcome | null;
  failureCategory?: FailureCategory | string | null;
  errorKind?: EpisodeErrorKind | string | null;
  steps: number;
  /** Cost-aware reward total; null for errors. */
  reward?: number | null;
}

export interface RunMetrics {
  /** Episodes with a recorded outcome. */
  finished: number;
  successes: number;
  failures: number;
  errors: number;
  /** successes / (successes + failures); null when no episode was scored. */
  successRate: number | null;
  interval: [number, number];
  failureDistribution: Record<string, number>;
  errorDistribution: Record<string, number>;
  /** Mean agent steps over scored episodes (success + failure). */
  meanSteps: number | null;
  /** Mean agent steps over successful episodes. */
  meanStepsSuccess: number | null;
  /** Mean cost-aware reward over scored episodes. */
  meanReward: number | null;
}

function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function computeMetrics(episodes: EpisodeForMetrics[]): RunMetrics {
  const failureDistribution: Record<string, number> = Object.fromEntries(
    FAILURE_CATEGORIES.map((c) => [c, 0]),
  );
  const errorDistribution: Record<string, number> = Object.fromEntries(
    EPISODE_ERROR_KINDS.map((k) => [k, 0]),
  );
  let successes = 0;
  let failures = 0;
  let errors = 0;
  const scoredSteps: number[] = [];
  const successSteps: number[] = [];
  const rewards: number[] = [];
  for (const e of episodes) {
    if (e.outcome === 'success') {
      successes += 1;
      scoredSteps.push(e.steps);
      successSteps.push(e.steps);
      if (typeof e.reward === 'number') rewards.push(e.reward);
    } else if (e.outcome === 'failure') {
      failures += 1;
      scoredSteps.push(e.steps);
      if (typeof e.reward === 'number') rewards.push(e.reward);
      const category = e.failureCategory ?? 'unknown';
      failureDistribution[category] = (failureDistribution[category] ?? 0) + 1;
    } else if (e.outcome === 'error') {
      errors += 1;
      const kind = e.errorKind ?? 'unknown';
      errorDistribution[kind] = (errorDistribution[kind] ?? 0) + 1;
    }
  }
  const scored = successes + failures;
  return {
    finished: scored + errors,
    successes,
    failures,
    errors,
    successRate: scored === 0 ? null : successes / scored,
    interval: wilsonInterval(successes, scored),
    failureDistribution,
    errorDistribution,
    meanSteps: mean(scoredSteps),
    meanStepsSuccess: mean(successSteps),
    meanReward: mean(rewards),
  };
}
