// The skill pages' derivations as plain functions: a comparison's rows read from its stored results,
// the chart's numbers, and a bank's skills by category with the titles its edit history names.

export interface ComparisonRowView {
  source: string;
  bankId: string | null;
  skills: number;
  trainSuccessRate: number | null;
  n: number;
  successes: number;
  successRate: number;
  interval: [number, number];
  meanSteps: number;
  meanStepsSuccess: number | null;
  errors: number;
}

export const SOURCE_LABEL: Record<string, string> = {
  none: 'No skills',
  original: 'Original envs',
  envharness: 'EnvHarness envs',
};

export function sourceLabel(source: string): string {
  return SOURCE_LABEL[source] ?? source;
}

export const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

export function rowsOf(results: unknown): ComparisonRowView[] {
  if (!results || typeof results !== 'object' || Array.isArray(results)) return [];
  const rows = (results as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as ComparisonRowView[]) : [];
}

/** Bars in percent (one decimal) with the interval as error bars, and mean steps. */
export function chartData(rows: ComparisonRowView[]) {
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

export const CATEGORIES = ['general', 'task', 'mistake', 'prior'] as const;

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
