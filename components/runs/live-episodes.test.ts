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

  it('adds to a filtered list only the episodes of its filter', () => {
    const old = { items: [episodeRowOf('run1', ended(1, 'failure'))], nextCursor: null };
    const batch = [ended(2, 'success'), ended(3, 'failure'), ended(4, 'error')];
    const failures = mergeEndedEpisodes(old, batch, 'run1', { outcome: 'failure', limit: 1000 });
    expect(failures?.items.map((e) => e.ordinal)).toEqual([1, 3]);
    const category = mergeEndedEpisodes(old, batch, 'run1', { failureCategory: 'gave_up' });
    expect(category?.items.map((e) => e.ordinal)).toEqual([1, 3]);
    expect(mergeEndedEpisodes(old, [ended(2, 'success')], 'run1', { outcome: 'error' })).toBe(old);
  });

  it('keeps a page a page: nothing past it when a later page follows, at most its size', () => {
    const rows = (...ordinals: number[]) => ordinals.map((o) => episodeRowOf('run1', ended(o)));
    // A full first page of two with more after it: 9 belongs to a later page; 0 pushes 3 out.
    const first = { items: rows(1, 3), nextCursor: 3 };
    const merged = mergeEndedEpisodes(first, [ended(9), ended(0)], 'run1', { limit: 2 });
    expect(merged?.items.map((e) => e.ordinal)).toEqual([0, 1]);
    expect(merged?.nextCursor).toBe(1);
    // The last page (after cursor 3) takes what comes after its cursor only.
    const last = { items: rows(5), nextCursor: null };
    const next = mergeEndedEpisodes(last, [ended(2), ended(7)], 'run1', { cursor: 3, limit: 2 });
    expect(next?.items.map((e) => e.ordinal)).toEqual([5, 7]);
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
