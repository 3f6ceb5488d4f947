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

/** The list with the batch's new episodes added in ordinal order; the same list when none is new. */
export function mergeEndedEpisodes<L extends { items: EpisodeRow[] }>(
  old: L | undefined,
  batch: EpisodeEndedPayload[],
  runId: string,
): L | undefined {
  if (!old) return old;
  const known = new Set(old.items.map((e) => e.id));
  const added = batch.filter((p) => !known.has(p.episodeId)).map((p) => episodeRowOf(runId, p));
  if (added.length === 0) return old;
  return { ...old, items: [...old.items, ...added].sort((a, b) => a.ordinal - b.ordinal) };
}

/** The summary with the run's done count moved on to `done` (never back: a late event is older). */
export function withProgress<S extends { episodesDone: number }>(
  old: S | undefined,
  done: number,
): S | undefined {
  if (!old || done <= old.episodesDone) return old;
  return { ...old, episodesDone: done };
}
