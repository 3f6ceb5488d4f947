'use client';
// Keeps a run's queries fresh while it is in flight: one SSE subscription (resumable: tRPC sends
// lastEventId on reconnect). Each ended episode goes straight into every cached episode list of the
// run, with no refetch; the summary (rate, interval, charts) is re-read now and then; the stored
// lists are read again only to catch up when the stream opens and once the run is over.
import { matchQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import {
  type EpisodeEndedPayload,
  type EpisodeListInput,
  mergeEndedEpisodes,
  withProgress,
} from './live-episodes.ts';

// The summary refreshes at most this often while events stream; rows and Progress move at once
// from the events themselves.
const SUMMARY_MS = 1000;
// Events that arrive together (one chunk of the stream) are applied in one render.
const BATCH_MS = 16;

type EpisodeList = RouterOutputs['runs']['episodes'];

export function useLiveRun(runId: string, active: boolean) {
  const trpc = useTRPC();
  const refresh = useCoalescedRefresh(runId);
  const episodes = useEpisodeBatches(runId);
  const sub = useSubscription(
    trpc.runs.live.subscriptionOptions(
      { runId },
      {
        enabled: active,
        // What happened between the page's first reads and the stream opening is caught here.
        onStarted: () => {
          refresh();
          episodes.reload();
        },
        onData: (tracked) => {
          const event = tracked.data;
          if (event.type === 'episode_ended') episodes.add(event.payload);
          if (event.type === 'run_progress') episodes.add(null, event.payload.done);
          refresh();
        },
      },
    ),
  );
  // A stream that ends while the run is still in flight (a proxy or the server closed it) is opened
  // again; tRPC resumes it from the last event id it saw.
  const { status, reset } = sub;
  useEffect(() => {
    if (!active || status !== 'idle') return;
    const t = setTimeout(reset, 500);
    return () => clearTimeout(t);
  }, [active, status, reset]);
  // Once the run is over, the stored rows (with what events do not carry: tokens, times) once.
  const wasActive = useRef(active);
  const { reload } = episodes;
  useEffect(() => {
    if (wasActive.current && !active) reload();
    wasActive.current = active;
  }, [active, reload]);

  return { status: sub.status, error: sub.error };
}

/** Invalidate the run's summary (and what moves with it), at most once per interval. */
function useCoalescedRefresh(runId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: trpc.runs.byId.queryKey({ id: runId }) });
      // The reward/verdict warning moves with the summary (reward-verdict-warning.tsx).
      void queryClient.invalidateQueries({
        queryKey: trpc.audits.disagreements.queryKey({ runId }),
      });
    }, SUMMARY_MS);
  }, [queryClient, trpc, runId]);
}

/**
 * Ended episodes go into every cached episode list of the run (each as its input would have them:
 * outcome filter, page), and the progress they come with into the cached summary in the same
 * batch: Progress and the episode table's count move together. A list read from the server (the
 * reload, a filter opened mid-run) may predate episodes the stream already reported: they are put
 * back as it lands.
 */
function useEpisodeBatches(runId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pending = useRef<EpisodeEndedPayload[]>([]);
  const progress = useRef<number | undefined>(undefined);
  /** Every episode the stream reported ended, for `reload`. */
  const ended = useRef<EpisodeEndedPayload[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const mergeInto = useCallback(
    (key: readonly unknown[], old: EpisodeList | undefined, batch: EpisodeEndedPayload[]) => {
      const input = (key[1] as { input?: EpisodeListInput } | undefined)?.input ?? {};
      const merged = mergeEndedEpisodes(old, batch, runId, input);
      if (merged !== old) queryClient.setQueryData(key, merged);
    },
    [queryClient, runId],
  );
  const merge = useCallback(
    (batch: EpisodeEndedPayload[]) => {
      const filter = trpc.runs.episodes.queryFilter({ runId });
      for (const [key, old] of queryClient.getQueriesData<EpisodeList>(filter)) {
        mergeInto(key, old, batch);
      }
    },
    [mergeInto, queryClient, trpc, runId],
  );
  useEffect(() => {
    const filter = trpc.runs.episodes.queryFilter({ runId });
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) {
        return;
      }
      if (ended.current.length === 0 || !matchQuery(filter, event.query)) return;
      const old = event.query.state.data as EpisodeList | undefined;
      mergeInto(event.query.queryKey, old, ended.current);
    });
  }, [mergeInto, queryClient, trpc, runId]);

  const flush = useCallback(() => {
    flushTimer.current = undefined;
    const batch = pending.current;
    const done = progress.current;
    pending.current = [];
    progress.current = undefined;
    if (batch.length > 0) merge(batch);
    if (done !== undefined) {
      queryClient.setQueryData(trpc.runs.byId.queryKey({ id: runId }), (old) =>
        withProgress(old, done),
      );
    }
  }, [merge, queryClient, trpc, runId]);
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const add = useCallback(
    (payload: EpisodeEndedPayload | null, done?: number) => {
      if (payload) {
        pending.current.push(payload);
        ended.current.push(payload);
      }
      if (done !== undefined) progress.current = Math.max(progress.current ?? 0, done);
      flushTimer.current ??= setTimeout(flush, BATCH_MS);
    },
    [flush],
  );

  const reload = useCallback(() => {
    void queryClient.invalidateQueries(trpc.runs.episodes.queryFilter({ runId }));
  }, [queryClient, trpc, runId]);

  return { add, reload };
}
