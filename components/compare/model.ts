// Two runs side by side, as plain functions: the rows of the metrics table (the same metrics in the
// same rows), each change read as better / worse / same, "clear" when the two Wilson intervals do not
// overlap, and a few episodes of each outcome to read beside the numbers.
import { failureLabel, interval, num, pct } from '../runs/format.ts';

export function parsePair(pair: string): [string, string] {
  const [a = '', b = ''] = pair.split('..');
  return [a.trim(), b.trim()];
}

export type Better = 'higher' | 'lower' | 'none';

export interface DeltaSpec {
  a: number | null;
  b: number | null;
  better: Better;
  digits?: number;
  percent?: boolean;
  clear?: boolean;
}

export type Delta =
  | { kind: 'missing' }
  | { kind: 'same' }
  | { kind: 'changed'; up: boolean; good: boolean | undefined; text: string };

/** B against A: same within the shown digits, else up or down, better or worse, as text. */
export function deltaOf({ a, b, better, digits = 1, percent = false }: DeltaSpec): Delta {
  if (a === null || b === null) return { kind: 'missing' };
  const d = b - a;
  const eps = percent ? 0.0005 : 10 ** -(digits + 1);
  if (Math.abs(d) < eps) return { kind: 'same' };
  const sign = d > 0 ? '+' : '';
  return {
    kind: 'changed',
    up: d > 0,
    good: better === 'none' ? undefined : better === 'higher' ? d > 0 : d < 0,
    text: percent ? `${sign}${(d * 100).toFixed(digits)} pts` : `${sign}${d.toFixed(digits)}`,
  };
}

export interface RunMetrics {
  successRate: number | null;
  interval: [number, number];
  successes: number;
  failures: number;
  errors: number;
  meanSteps: number | null;
  meanStepsSuccess: number | null;
  meanReward: number | null;
  failureDistribution: Record<string, number>;
}

/** A change in success rate is clear when the two 95% intervals do not overlap. */
export function clearChange(ma: RunMetrics, mb: RunMetrics): boolean {
  return (
    ma.successRate !== null &&
    mb.successRate !== null &&
    (ma.interval[1] < mb.interval[0] || mb.interval[1] < ma.interval[0])
  );
}

export interface CompareRow {
  label: string;
  testId: string;
  a: string | number;
  b: string | number;
  delta: DeltaSpec | null;
}

function failureShare(m: RunMetrics, category: string): number | null {
  return m.failures > 0 ? (m.failureDistribution[category] ?? 0) / m.failures : null;
}

/** The table: the headline metrics, then one row per failure category either run saw. */
export function compareRows(ma: RunMetrics, mb: RunMetrics): CompareRow[] {
  const categories = [
    ...new Set([...Object.keys(ma.failureDistribution), ...Object.keys(mb.failureDistribution)]),
  ];
  const iv = (m: RunMetrics) => (m.successRate === null ? '—' : interval(m.interval));
  const mean = (a: number | null, b: number | null, digits?: number): DeltaSpec => ({
    a,
    b,
    better: 'lower',
    ...(digits === undefined ? {} : { digits }),
  });
  return [
    {
      label: 'Success rate',
      testId: 'success',
      a: pct(ma.successRate),
      b: pct(mb.successRate),
      delta: {
        a: ma.successRate,
        b: mb.successRate,
        better: 'higher',
        percent: true,
        clear: clearChange(ma, mb),
      },
    },
    { label: '95% interval', testId: 'interval', a: iv(ma), b: iv(mb), delta: null },
    {
      label: 'Scored episodes',
      testId: 'scored',
      a: ma.successes + ma.failures,
      b: mb.successes + mb.failures,
      delta: null,
    },
    {
      label: 'Mean steps',
      testId: 'mean-steps',
      a: num(ma.meanSteps),
      b: num(mb.meanSteps),
      delta: mean(ma.meanSteps, mb.meanSteps),
    },
    {
      label: 'Mean steps (successful)',
      testId: 'mean-steps-success',
      a: num(ma.meanStepsSuccess),
      b: num(mb.meanStepsSuccess),
      delta: mean(ma.meanStepsSuccess, mb.meanStepsSuccess),
    },
    {
      label: 'Mean cost-aware reward',
      testId: 'reward',
      a: num(ma.meanReward, 2),
      b: num(mb.meanReward, 2),
      delta: { a: ma.meanReward, b: mb.meanReward, better: 'higher', digits: 2 },
    },
    {
      label: 'Errors (not scored)',
      testId: 'errors',
      a: ma.errors,
      b: mb.errors,
      delta: mean(ma.errors, mb.errors, 0),
    },
    ...categories.map((c) => ({
      label: `Failure: ${failureLabel(c)}`,
      testId: `failure-${c}`,
      a: `${ma.failureDistribution[c] ?? 0} (${pct(failureShare(ma, c), 0)})`,
      b: `${mb.failureDistribution[c] ?? 0} (${pct(failureShare(mb, c), 0)})`,
      delta: {
        a: failureShare(ma, c),
        b: failureShare(mb, c),
        better: 'lower' as const,
        percent: true,
        digits: 0,
      },
    })),
  ];
}

/** Up to three failures, two successes and one error, in list order. */
export function sampleEpisodes<E extends { outcome: string | null }>(items: E[]): E[] {
  return [
    ...items.filter((e) => e.outcome === 'failure').slice(0, 3),
    ...items.filter((e) => e.outcome === 'success').slice(0, 2),
    ...items.filter((e) => e.outcome === 'error').slice(0, 1),
  ];
}

/** What a run played: the bare task, or which harness layer is on top. */
export function specLabel(env: { type: string; bridge?: string; task?: string }): string {
  return env.type === 'base' ? `${env.bridge}:${env.task} (bare)` : `harness (${env.type} on top)`;
}

/** Picking runs to compare: a second pick joins the first, a third replaces the older one. */
export function togglePick(picked: string[], id: string): string[] {
  return picked.includes(id) ? picked.filter((x) => x !== id) : [...picked.slice(-1), id];
}
