// The runs list's view state as it lives in the URL (/runs?bridge=…&status=…&outcome=…&q=…&sort=…
// &dir=…): read and checked with the server's own schema, so a hand-edited link cannot ask for a
// list the server refuses; sorting a column is one pure step (new column: its natural direction,
// same column: the other direction).
import {
  type RunListFilter,
  RunListFilterSchema,
  type RunSortKey,
  RunSortKeySchema,
  type SortDir,
  SortDirSchema,
} from '../../contracts/run-list.ts';

export const LIST_PARAMS = ['bridge', 'policy', 'status', 'outcome', 'q', 'sort', 'dir'] as const;

export interface ListState {
  filter: Omit<RunListFilter, 'task'>;
  sort: RunSortKey;
  dir: SortDir;
}

export const DEFAULT_SORT: { sort: RunSortKey; dir: SortDir } = { sort: 'started', dir: 'desc' };

/** Text sorts start ascending (A→Z); numbers and times start with the largest / newest. */
const ASCENDING_FIRST: readonly RunSortKey[] = ['run', 'task', 'policy', 'status'];

function pick<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  v: string | null,
) {
  if (v === null || v === '') return undefined;
  const r = schema.safeParse(v);
  return r.success ? r.data : undefined;
}

export function listStateOf(params: { get(key: string): string | null }): ListState {
  const f = RunListFilterSchema.shape;
  const filter: ListState['filter'] = {};
  const bridge = pick(f.bridge, params.get('bridge'));
  const policy = pick(f.policy, params.get('policy'));
  const status = pick(f.status, params.get('status'));
  const outcome = pick(f.outcome, params.get('outcome'));
  const q = pick(f.q, params.get('q'));
  if (bridge) filter.bridge = bridge;
  if (policy) filter.policy = policy;
  if (status) filter.status = status;
  if (outcome) filter.outcome = outcome;
  if (q) filter.q = q;
  return {
    filter,
    sort: pick(RunSortKeySchema, params.get('sort')) ?? DEFAULT_SORT.sort,
    dir: pick(SortDirSchema, params.get('dir')) ?? DEFAULT_SORT.dir,
  };
}

/** The sort after a click on column `key`. */
export function nextSort(current: { sort: RunSortKey; dir: SortDir }, key: RunSortKey) {
  if (current.sort === key)
    return { sort: key, dir: current.dir === 'asc' ? 'desc' : 'asc' } as const;
  return { sort: key, dir: ASCENDING_FIRST.includes(key) ? 'asc' : 'desc' } as const;
}

/** The URL patch for a sort: the default sort leaves the URL clean. */
export function sortPatch(s: { sort: RunSortKey; dir: SortDir }) {
  const isDefault = s.sort === DEFAULT_SORT.sort && s.dir === DEFAULT_SORT.dir;
  return isDefault ? { sort: null, dir: null } : { sort: s.sort, dir: s.dir };
}
