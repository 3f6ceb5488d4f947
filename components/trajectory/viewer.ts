// The trajectory viewer's navigation as plain functions: the step filter (?filter=), which step is
// at which row of the (filtered) list, the selected step (?step=, clamped), j/k moves and where a
// filter tab lands.

export const FILTERS = [
  { id: '', label: 'All steps' },
  { id: 'changed', label: 'Changed by a layer' },
  { id: 'blocked', label: 'Blocked' },
  { id: 'invalid', label: 'Invalid' },
] as const;
export type FilterId = (typeof FILTERS)[number]['id'];

export interface StepFlags {
  total: number;
  changed: number[];
  blocked: number[];
  invalid: number[];
}

export function filterOf(param: string | undefined): FilterId {
  return FILTERS.find((f) => f.id === param)?.id ?? '';
}

/** Row position ↔ step index. Unfiltered lists map identity without materialising an array. */
export interface StepRows {
  count: number;
  indexAt: (pos: number) => number;
  posOf: (index: number) => number;
}

export function stepRows(filtered: number[] | null, total: number): StepRows {
  if (!filtered) return { count: total, indexAt: (pos) => pos, posOf: (index) => index };
  return {
    count: filtered.length,
    indexAt: (pos) => filtered[pos] ?? 0,
    posOf: (index) => filtered.indexOf(index),
  };
}

/** The step asked for in the URL (else the filter's first), clamped to the episode. */
export function selectedStep(
  param: string | undefined,
  filtered: number[] | null,
  total: number,
): number {
  const requested = Number(param ?? filtered?.[0] ?? 0);
  return Number.isFinite(requested) ? Math.max(0, Math.min(requested, Math.max(total - 1, 0))) : 0;
}

/** j: the next row (the first when the cursor is not in the list), k: the previous; null at an end. */
export function moveStep(rows: StepRows, from: number, key: 'j' | 'k'): number | null {
  const pos = rows.posOf(from);
  const next = key === 'j' ? (pos < 0 ? 0 : pos + 1) : pos - 1;
  return next >= 0 && next < rows.count ? rows.indexAt(next) : null;
}

/** Where picking a filter goes: its first flagged step (none when it has none), else stay. */
export function filterStep(
  filter: FilterId,
  flags: StepFlags | undefined,
  selected: number,
): number | null {
  return filter && flags ? (flags[filter][0] ?? null) : selected;
}
