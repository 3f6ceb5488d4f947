// The skill pages' derivations as plain functions: a comparison's rows read from its stored results,
// the chart's numbers, and a bank's skills by category with the titles its edit history names.
import {
  type ComparisonResults,
  SKILL_CATEGORIES,
  type SourceRow,
} from '../../contracts/skills.ts';

export type { SourceRow };

export const SOURCE_LABEL: Record<string, string> = {
  none: 'No skills',
  original: 'Original envs',
  envharness: 'EnvHarness envs',
};

export function sourceLabel(source: string): string {
  return SOURCE_LABEL[source] ?? source;
}

export const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

/** A stored comparison's rows (none while it has no results). */
export function rowsOf(results: ComparisonResults | null | undefined): SourceRow[] {
  return results?.rows ?? [];
}

/** Bars in percent (one decimal) with the interval as error bars, and mean steps. */
export function chartData(rows: SourceRow[]) {
  return rows.map((r) => ({
    label: sourceLabel(r.source),
    success: Math.round(r.successRate * 1000) / 10,
    err: [
      Math.round((r.successRate - r.interval[0]) * 1000) / 10,
      Math.round((r.interval[1] - r.successRate) * 1000) / 10,
    ],
    steps: Math.round(r.meanSteps * 10) / 10,
  }));
}

export const CATEGORIES = SKILL_CATEGORIES;

export const CATEGORY_LABEL: Record<string, string> = {
  general: 'General skills',
  task: 'Task-specific skills',
  mistake: 'Common mistakes',
  prior: 'Search priors',
};

/** The run a bank was extracted from, when its config names one. */
export function bankRunId(config: unknown): string | undefined {
  return config &&
    typeof config === 'object' &&
    !Array.isArray(config) &&
    typeof (config as { runId?: unknown }).runId === 'string'
    ? (config as { runId: string }).runId
    : undefined;
}

/** The title a skill edit names: the skill's, or the merged skills' joined with " + ". */
export function titleOf(v: unknown): string | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v) && 'title' in v) {
    const t = (v as { title?: unknown }).title;
    return typeof t === 'string' ? t : undefined;
  }
  if (Array.isArray(v)) return v.map(titleOf).filter(Boolean).join(' + ');
  return undefined;
}

/** Half the width of the interval's whisker caps (ErrorBar width 6). */
export const WHISKER_HALF = 3;

/**
 * Where a bar's value label goes: above the bar, ending just left of the interval's whisker, so the
 * error bar (drawn through the bar's centre, above and below its top) never runs through the text.
 */
export function labelBesideWhisker(bar: { x: number; y: number; width: number }): {
  x: number;
  y: number;
} {
  return { x: bar.x + bar.width / 2 - WHISKER_HALF - 4, y: bar.y - 4 };
}
