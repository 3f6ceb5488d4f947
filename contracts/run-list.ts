// What the runs list can be asked for: filters, a sort on any column, a cursor. The studio keeps
// these in the URL (/runs?bridge=household&sort=success&dir=asc&q=eval_seen), the server turns
// them into one indexed query; both read this schema.
import { z } from 'zod';
import { RunOutcomeSchema } from './outcomes.ts';
import { RUN_STATUSES } from './runs.ts';

/** The columns the list sorts by (each one a stored run column, so pages are cheap and stable). */
export const RUN_SORT_KEYS = [
  'started',
  'run',
  'task',
  'policy',
  'status',
  'success',
  'steps',
  'failures',
  'errors',
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];
export const RunSortKeySchema = z.enum(RUN_SORT_KEYS);
export const SortDirSchema = z.enum(['asc', 'desc']);
export type SortDir = z.infer<typeof SortDirSchema>;

/** The filters alone (the URL holds these and the sort). */
export const RunListFilterSchema = z.object({
  bridge: z.string().min(1).optional(),
  policy: z.string().min(1).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  outcome: RunOutcomeSchema.optional(),
  /** One task exactly (a task page's runs): any of the run's tasks. */
  task: z.string().min(1).optional(),
  /** Search: part of the run id, of its task, or of its harness's name. */
  q: z.string().trim().max(200).optional(),
});
export type RunListFilter = z.infer<typeof RunListFilterSchema>;

export const RunListInputSchema = RunListFilterSchema.extend({
  sort: RunSortKeySchema.default('started'),
  dir: SortDirSchema.default('desc'),
  /** Opaque: the nextCursor of the page before. */
  cursor: z.string().max(500).nullish(),
  limit: z.number().int().min(1).max(100).default(30),
});
export type RunListInput = z.input<typeof RunListInputSchema>;
