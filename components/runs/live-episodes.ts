// Ended episodes from the run's event stream, merged into the cached episode list so their rows
// appear before the stored list is read again (pure: the live hook and tests share it).
import type { EpisodeEndedPayload } from '../../contracts/runs.ts';
import type { RouterOutputs } from '../trpc/types.ts';

type EpisodeRow = RouterOutputs['runs']['episodes']['items'][number];

export type { EpisodeEndedPayload };

export function episodeRowOf(runId: string, payload: EpisodeEndedPayload): EpisodeRow {
  return {
    id: payload.episodeId,
    runId,
    taskId: payload.taskId,
    seed: payload.seed,
    startSeed: payload.startSeed ?? null,
    ordinal: payload.ordinal,
    status: 'done',
    attempt: 0,
    outcome: payload.outcome,
    failureCategory: payload.failureCategory,
    errorKind: payload.errorKind,
    errorMessage: payload.error,
    steps: payload.steps,
    reward: payload.reward,
    durationMs: payload.durationMs,
    startedAt: null,
    finishedAt: null,
    // The event does not carry tokens; the stored row, read again shortly, does.
    promptTokens: null,
    outputTokens: null,
    cachedTokens: null,
  };
}

/** What a cached episode list was read with (the runs.episodes input). */
export interface EpisodeListInput {
  outcome?: EpisodeRow['outcome'];
  failureCategory?: EpisodeRow['failureCategory'];
  cursor?: number | null;
  limit?: number;
}

/** The server's page size for a list input (runs.episodes: default 200, at most 1000). */
const pageSize = (input: EpisodeListInput) => Math.min(input.limit ?? 200, 1000);

/** First index whose ordinal is at least `ordinal` (rows are in ordinal order). */
function lowerBound(items: readonly EpisodeRow[], ordinal: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as EpisodeRow).ordinal < ordinal) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The list with the batch's new episodes put in ordinal order, where a read with `input` would
 * have them: its outcome filter, its page (after its cursor; not past its last row when a later
 * page follows; at most its page size, the overflow moving to the next page). The same list when
 * nothing changes. Work per episode: a binary search and one splice — the rows already listed keep
 * their identity, so only new rows render.
 */
export function mergeEndedEpisodes<L extends { items: EpisodeRow[]; nextCursor?: number | null }>(
  old: L | undefined,
  batch: EpisodeEndedPayload[],
  runId: string,
  input: EpisodeListInput = {},
): L | undefined {
  if (!old) return old;
  let items = old.items;
  let nextCursor = old.nextCursor ?? null;
  for (const p of batch) {
    if (input.outcome !== undefined && p.outcome !== input.outcome) continue;
    if (input.failureCategory !== undefined && p.failureCategory !== input.failureCategory) {
      continue;
    }
    if (input.cursor !== undefined && input.cursor !== null && p.ordinal <= input.cursor) continue;
    const last = items.at(-1);
    if (nextCursor !== null && last && p.ordinal > last.ordinal) continue;
    let at = lowerBound(items, p.ordinal);
    while (items[at]?.ordinal === p.ordinal && items[at]?.id !== p.episodeId) at += 1;
    if (items[at]?.id === p.episodeId) continue;
    if (items === old.items) items = items.slice();
    items.splice(at, 0, episodeRowOf(runId, p));
    if (items.length > pageSize(input)) {
      items.pop();
      nextCursor = (items.at(-1) as EpisodeRow).ordinal;
    }
  }
  if (items === old.items) return old;
  return { ...old, items, ...(nextCursor !== (old.nextCursor ?? null) ? { nextCursor } : {}) };
}

/** The summary with the run's done count moved on to `done` (never back: a late event is older). */
export function withProgress<S extends { episodesDone: number }>(
  old: S | undefined,
  done: number,
): S | undefined {
  if (!old || done <= old.episodesDone) return old;
  return { ...old, episodesDone: done };
}
