// K-sample statistics of a batch and the accept / refine / reject rule of Validate. A decision rests
// on the whole batch (success rate, failure distribution, time-outs), never on one trajectory.
import { computeMetrics } from '../rollouts/metrics.ts';
import type { BatchStats, ObservedEpisode, RigConstraints, TraceVerdict } from './types.ts';

export function batchStats(episodes: ObservedEpisode[]): BatchStats {
  const m = computeMetrics(
    episodes.map((e) => ({
      outcome: e.outcome,
      failureCategory: e.failureCategory,
      errorKind: e.outcome === 'error' ? 'harness' : null,
      steps: e.steps,
    })),
  );
  const failureDistribution = Object.fromEntries(
    Object.entries(m.failureDistribution).filter(([, n]) => n > 0),
  );
  return {
    n: m.successes + m.failures,
    successes: m.successes,
    successRate: m.successRate,
    interval: m.interval,
    failureDistribution,
    meanSteps: m.meanSteps,
    meanStepsSuccess: m.meanStepsSuccess,
    timeouts: m.failureDistribution.step_budget_exhausted ?? 0,
    errors: m.errors,
    errorMessages: [
      ...new Set(episodes.filter((e) => e.outcome === 'error').map((e) => e.errorMessage ?? '')),
    ].filter((s) => s.length > 0),
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function inBand(x: number, [lo, hi]: readonly [number, number]): boolean {
  return x >= lo - 1e-9 && x <= hi + 1e-9;
}

/** Where the batch stands against the constraints: the direction a refinement must go. */
export function position(
  stats: BatchStats,
  constraints: RigConstraints,
): 'in' | 'too-easy' | 'too-hard' | 'unsolvable' | 'broken' | 'steps-off' {
  if (stats.errors > 0 && stats.errors * 2 >= stats.n + stats.errors) return 'broken';
  const rate = stats.successRate;
  if (rate === null) return 'broken';
  if (rate === 0) return 'unsolvable';
  const [lo, hi] = constraints.band;
  if (rate < lo - 1e-9) return 'too-hard';
  if (rate > hi + 1e-9) return 'too-easy';
  if (
    constraints.stepsBand &&
    stats.meanSteps !== null &&
    !inBand(stats.meanSteps, constraints.stepsBand)
  )
    return 'steps-off';
  return 'in';
}

/**
 * The statistics rule. 0% success is never accepted (an unsolvable task teaches nothing); a candidate
 * is accepted only inside the success band (and the mean-steps band when one is set).
 */
export function decideByStats(
  stats: BatchStats,
  constraints: RigConstraints,
  lastIteration: boolean,
): TraceVerdict {
  const where = position(stats, constraints);
  const rate = stats.successRate ?? 0;
  const [lo, hi] = constraints.band;
  const failures = Object.entries(stats.failureDistribution)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const tail = `(${stats.successes}/${stats.n} successes${failures ? `; failures: ${failures}` : ''}${stats.meanSteps !== null ? `; mean steps ${stats.meanSteps.toFixed(1)}` : ''})`;
  switch (where) {
    case 'in':
      return {
        decision: 'accept',
        feedback: `success ${pct(rate)} is inside the band [${pct(lo)}, ${pct(hi)}] ${tail}`,
      };
    case 'broken':
      return {
        decision: 'reject',
        feedback: `the harness itself failed in ${stats.errors} episode(s): ${stats.errorMessages.slice(0, 2).join(' | ') || 'no message'}`,
      };
    case 'unsolvable':
      return {
        decision: 'reject',
        feedback: `0% success: the variant looks unsolvable for this policy, which teaches nothing; make it easier ${tail}`,
      };
    case 'too-easy':
      return {
        decision: lastIteration ? 'reject' : 'refine',
        feedback: `success ${pct(rate)} is above the band [${pct(lo)}, ${pct(hi)}]: make it harder ${tail}`,
      };
    case 'too-hard':
      return {
        decision: lastIteration ? 'reject' : 'refine',
        feedback: `success ${pct(rate)} is below the band [${pct(lo)}, ${pct(hi)}]: make it easier ${tail}`,
      };
    case 'steps-off': {
      const [slo, shi] = constraints.stepsBand ?? [0, 0];
      const mean = stats.meanSteps ?? 0;
      return {
        decision: lastIteration ? 'reject' : 'refine',
        feedback: `success is in the band but mean steps ${mean.toFixed(1)} is outside [${slo}, ${shi}]: ${mean > shi ? 'shorten the work' : 'lengthen the work'} ${tail}`,
      };
    }
  }
}
