import { describe, expect, it } from 'vitest';
import {
  type EpisodeEndedPayload,
  episodeRowOf,
  mergeEndedEpisodes,
  withProgress,
} from './live-episodes.ts';

const ended = (
  ordinal: number,
  outcome: EpisodeEndedPayload['outcome'] = 'success',
): EpisodeEndedPayload => ({
  episodeId: `ep${ordinal}`,
  ordinal,
  taskId: 'pick-mug-1',
  seed: ordinal,
  outcome,
  failureCategory: outcome === 'failure' ? 'gave_up' : null,
  errorKind: null,
  error: null,
  steps: 7,
  reward: outcome === 'success' ? 1 : 0,
  durationMs: 120,
});

describe('live episode rows', () => {
  it('turns an ended episode into a finished row of the run', () => {
    expect(episodeRowOf('run1', ended(2, 'failure'))).toMatchObject({
      id: 'ep2',
      runId: 'run1',
      ordinal: 2,
      status: 'done',
      outcome: 'failure',
      failureCategory: 'gave_up',
      errorMessage: null,
      steps: 7,
    });
  });

  it('adds new episodes in ordinal order and keeps rows already listed', () => {
    const old = {
      items: [episodeRowOf('run1', ended(1)), episodeRowOf('run1', ended(3))],
      nextCursor: null,
    };
    const merged = mergeEndedEpisodes(old, [ended(4), ended(2), ended(3)], 'run1');
    expect(merged?.items.map((e) => e.ordinal)).toEqual([1, 2, 3, 4]);
    expect(merged?.items[2]).toBe(old.items[1]);
    expect(merged?.nextCursor).toBeNull();
  });

  it('leaves the cache alone when nothing is new or nothing is cached yet', () => {
    const old = { items: [episodeRowOf('run1', ended(1))] };
    expect(mergeEndedEpisodes(old, [ended(1)], 'run1')).toBe(old);
    expect(mergeEndedEpisodes(undefined, [ended(1)], 'run1')).toBeUndefined();
  });
});

describe('live progress', () => {
  it("moves the cached summary on to the event's done count, never back", () => {
    const summary = { id: 'run1', episodesDone: 117, episodesTotal: 300 };
    expect(withProgress(summary, 119)).toEqual({ ...summary, episodesDone: 119 });
    expect(withProgress(summary, 110)).toBe(summary);
    expect(withProgress(undefined, 5)).toBeUndefined();
  });
});
