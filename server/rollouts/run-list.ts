// The runs list: filters, a sort on any column and cursor pages, as one Prisma query on stored run
// columns (the recorder keeps the counters the sorts and the outcome filter read), then the
// summaries of that page. The cursor is keyset, not an offset: a run that finishes while someone
// pages does not shift the pages after it.
import type { RunOutcome } from '../../contracts/outcomes.ts';
import {
  type RunListFilter,
  type RunListInput,
  RunListInputSchema,
  type RunSortKey,
  type SortDir,
} from '../../contracts/run-list.ts';
import { RUN_STATUSES } from '../../contracts/runs.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError } from '../errors.ts';
import { runListItem, runSummaries } from './summary.ts';

type Field =
  | 'createdAt'
  | 'id'
  | 'task'
  | 'policy'
  | 'status'
  | 'successRate'
  | 'meanSteps'
  | 'episodesFailed'
  | 'episodesErrored';

/** Each sort key's column; nullable columns sort their nulls last in both directions. */
const SORTS: Record<RunSortKey, { field: Field; nullable?: true; values?: readonly string[] }> = {
  started: { field: 'createdAt' },
  run: { field: 'id' },
  task: { field: 'task' },
  policy: { field: 'policy' },
  // PostgreSQL orders an enum by declaration, the order of RUN_STATUSES (server/db/contracts.test.ts).
  status: { field: 'status', values: RUN_STATUSES },
  success: { field: 'successRate', nullable: true },
  steps: { field: 'meanSteps', nullable: true },
  failures: { field: 'episodesFailed' },
  errors: { field: 'episodesErrored' },
};

type CursorValue = string | number | null;
interface Cursor {
  v: CursorValue;
  id: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    const v = c.v;
    if (typeof c.id === 'string' && (v === null || typeof v === 'string' || typeof v === 'number'))
      return { v, id: c.id };
  } catch {}
  throw new InvalidInputError('cursor: not a cursor of this list');
}

/**
 * The same rule as contracts/outcomes.ts runOutcome, on the run's stored counters (a test checks
 * the two agree on every case).
 */
export function outcomeWhere(db: Db, outcome: RunOutcome): Prisma.RunWhereInput {
  const done = db.run.fields.episodesDone;
  switch (outcome) {
    case 'pending':
      return { episodesDone: 0 };
    case 'clean':
      return { episodesDone: { gt: 0 }, episodesErrored: 0 };
    case 'partial_errors':
      return { episodesErrored: { gt: 0, lt: done } };
    case 'all_errors':
      return { episodesDone: { gt: 0 }, episodesErrored: { equals: done } };
  }
}

export function filterWhere(
  db: Db,
  f: RunListFilter & { projectId?: string | null | undefined },
): Prisma.RunWhereInput {
  const and: Prisma.RunWhereInput[] = [];
  if (f.projectId) and.push({ projectId: f.projectId });
  if (f.bridge) and.push({ bridge: f.bridge });
  if (f.policy) and.push({ policy: f.policy });
  if (f.status) and.push({ status: f.status });
  if (f.task) and.push({ taskIds: { has: f.task } });
  if (f.outcome) and.push(outcomeWhere(db, f.outcome));
  if (f.q) {
    const contains = { contains: f.q, mode: 'insensitive' as const };
    and.push({
      OR: [
        { id: contains },
        { task: contains },
        { taskIds: { has: f.q } },
        { harnessVersion: { harness: { name: contains } } },
      ],
    });
  }
  return { AND: and };
}

function orderBy(key: RunSortKey, dir: SortDir): Prisma.RunOrderByWithRelationInput[] {
  const s = SORTS[key];
  if (s.field === 'id') return [{ id: dir }];
  const first = s.nullable ? { sort: dir, nulls: 'last' as const } : dir;
  return [{ [s.field]: first } as Prisma.RunOrderByWithRelationInput, { id: dir }];
}

/** Rows after the cursor in the list's order: (value, id) beyond the cursor's, nulls last. */
function afterCursor(key: RunSortKey, dir: SortDir, c: Cursor): Prisma.RunWhereInput {
  const s = SORTS[key];
  const idBeyond = { id: dir === 'desc' ? { lt: c.id } : { gt: c.id } };
  if (s.field === 'id') return idBeyond;
  const at = (value: unknown) => ({ [s.field]: value }) as Prisma.RunWhereInput;
  if (c.v === null) return { AND: [at(null), idBeyond] };
  const v = s.field === 'createdAt' ? new Date(String(c.v)) : c.v;
  let beyond: Prisma.RunWhereInput;
  if (s.values) {
    const i = s.values.indexOf(String(v));
    beyond = at({ in: dir === 'desc' ? s.values.slice(0, Math.max(i, 0)) : s.values.slice(i + 1) });
  } else {
    beyond = at(dir === 'desc' ? { lt: v } : { gt: v });
  }
  const or = [beyond, { AND: [at(v), idBeyond] }];
  if (s.nullable) or.push(at(null));
  return { OR: or };
}

/** Every column a sort can key on: what a page's last row gives its cursor. */
const SORT_COLUMNS = {
  id: true,
  createdAt: true,
  task: true,
  policy: true,
  status: true,
  successRate: true,
  meanSteps: true,
  episodesFailed: true,
  episodesErrored: true,
} as const satisfies Record<Field, true>;

type SortRow = Prisma.RunGetPayload<{ select: typeof SORT_COLUMNS }>;

function cursorOf(key: RunSortKey, row: SortRow): string {
  const v = row[SORTS[key].field];
  return encodeCursor({ v: v instanceof Date ? v.toISOString() : v, id: row.id });
}

/** One page of the runs list, each run with its summary. */
export async function runsPage(
  db: Db,
  raw: RunListInput & { projectId?: string | null | undefined },
) {
  const input = RunListInputSchema.parse(raw);
  const where: Prisma.RunWhereInput[] = [filterWhere(db, { ...input, projectId: raw.projectId })];
  if (input.cursor) where.push(afterCursor(input.sort, input.dir, decodeCursor(input.cursor)));
  const rows = await db.run.findMany({
    where: { AND: where },
    orderBy: orderBy(input.sort, input.dir),
    take: input.limit + 1,
    select: SORT_COLUMNS,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const ids = page.map((r) => r.id);
  const items = (await runSummaries(db, { id: { in: ids } }, ids)).map(runListItem);
  return {
    items,
    nextCursor: rows.length > input.limit && last ? cursorOf(input.sort, last) : null,
  };
}

/** The bridges and policies that runs exist for: what the list's filters offer. */
export async function runFacets(db: Db, projectId?: string | null) {
  const where = projectId ? { projectId } : {};
  const [bridges, policies] = await Promise.all([
    db.run.findMany({
      where,
      distinct: ['bridge'],
      select: { bridge: true },
      orderBy: { bridge: 'asc' },
    }),
    db.run.findMany({
      where,
      distinct: ['policy'],
      select: { policy: true },
      orderBy: { policy: 'asc' },
    }),
  ]);
  return {
    bridges: bridges.map((r) => r.bridge).filter(Boolean),
    policies: policies.map((r) => r.policy),
  };
}
