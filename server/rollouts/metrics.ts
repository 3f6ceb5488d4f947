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

/**
 * Wilson score interval for k successes out of n; [0, 1] when n = 0 (nothing known). Clamped to
 * [0, 1] and to the point estimate, so floating-point rounding can never leave p = k/n outside
 * its own interval (10 of 10 once gave an upper bound of 0.9999999999999999).
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const lo = Math.min(p, Math.max(0, center - half));
  const hi = Math.max(p, Math.min(1, center + half));
  return [lo, hi];
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

/**
 * Episodes alike in outcome, category and kind, counted together (one row of a GROUP BY): what the
 * metrics need of many episodes without reading each one.
 */
export interface EpisodeGroup {
  outcome: EpisodeOutcome | null;
  failureCategory?: FailureCategory | string | null;
  errorKind?: EpisodeErrorKind | string | null;
  count: number;
  /** Sum of their agent steps. */
  steps: number;
  /** Sum of their cost-aware rewards, over the `rewarded` ones that have one. */
  reward: number;
  rewarded: number;
}

/** Each episode as a group of one. */
export function groupsOf(episodes: EpisodeForMetrics[]): EpisodeGroup[] {
  return episodes.map((e) => ({
    outcome: e.outcome,
    failureCategory: e.failureCategory ?? null,
    errorKind: e.errorKind ?? null,
    count: 1,
    steps: e.steps,
    reward: typeof e.reward === 'number' ? e.reward : 0,
    rewarded: typeof e.reward === 'number' ? 1 : 0,
  }));
}

const ratio = (sum: number, n: number): number | null => (n === 0 ? null : sum / n);

export function computeMetrics(episodes: EpisodeForMetrics[]): RunMetrics {
  return metricsOfGroups(groupsOf(episodes));
}

/** The run metrics of grouped episodes (computeMetrics is this over groups of one). */
export function metricsOfGroups(groups: EpisodeGroup[]): RunMetrics {
  const failureDistribution: Record<string, number> = Object.fromEntries(
    FAILURE_CATEGORIES.map((c) => [c, 0]),
  );
  const errorDistribution: Record<string, number> = Object.fromEntries(
    EPISODE_ERROR_KINDS.map((k) => [k, 0]),
  );
  const sums = { successes: 0, failures: 0, errors: 0, steps: 0, successSteps: 0 };
  const reward = { sum: 0, n: 0 };
  for (const g of groups) {
    if (g.outcome === 'error') {
      sums.errors += g.count;
      const kind = g.errorKind ?? 'unknown';
      errorDistribution[kind] = (errorDistribution[kind] ?? 0) + g.count;
      continue;
    }
    if (g.outcome !== 'success' && g.outcome !== 'failure') continue;
    sums.steps += g.steps;
    reward.sum += g.reward;
    reward.n += g.rewarded;
    if (g.outcome === 'success') {
      sums.successes += g.count;
      sums.successSteps += g.steps;
    } else {
      sums.failures += g.count;
      const category = g.failureCategory ?? 'unknown';
      failureDistribution[category] = (failureDistribution[category] ?? 0) + g.count;
    }
  }
  const { successes, failures, errors } = sums;
  const scored = successes + failures;
  return {
    finished: scored + errors,
    successes,
    failures,
    errors,
    successRate: ratio(successes, scored),
    interval: wilsonInterval(successes, scored),
    failureDistribution,
    errorDistribution,
    meanSteps: ratio(sums.steps, scored),
    meanStepsSuccess: ratio(sums.successSteps, successes),
    meanReward: ratio(reward.sum, reward.n),
  };
}
