'use client';
// Keeps a run's queries fresh while it is in flight: one SSE subscription (resumable: tRPC sends
// lastEventId on reconnect), and each event invalidates the run's summary and episode list —
// coalesced, so a burst of events costs one refetch.
import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import { type EpisodeEndedPayload, mergeEndedEpisodes, withProgress } from './live-episodes.ts';

// The summary (rate, interval, charts) refreshes at most this often while events stream; rows
// appear at once from the events themselves, and the stored list is re-read less often.
const SUMMARY_MS = 400;
const LIST_MS = 2500;

export function useLiveRun(runId: string, active: boolean) {
  const trpc = useTRPC();
  const refresh = useCoalescedRefresh(runId);
  const addEpisode = useEpisodeBatches(runId);
  const sub = useSubscription(
    trpc.runs.live.subscriptionOptions(
      { runId },
      {
        enabled: active,
        // Anything that happened between the first fetch and the stream opening is caught here.
        onStarted: refresh,
        onData: (tracked) => {
          const event = tracked.data;
          if (event.type === 'episode_ended') addEpisode(event.payload);
          if (event.type === 'run_progress') addEpisode(null, event.payload.done);
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

  return { status: sub.status, error: sub.error };
}

/** Invalidate the run's summary and its episode list, each at most once per interval. */
function useCoalescedRefresh(runId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const timers = useRef<Record<'summary' | 'list', ReturnType<typeof setTimeout> | undefined>>({
    summary: undefined,
    list: undefined,
  });
  const schedule = useCallback(
    (what: 'summary' | 'list', ms: number) => {
      if (timers.current[what]) return;
      timers.current[what] = setTimeout(() => {
        timers.current[what] = undefined;
        if (what === 'summary') {
          void queryClient.invalidateQueries({ queryKey: trpc.runs.byId.queryKey({ id: runId }) });
          // The reward/verdict warning moves with the summary (reward-verdict-warning.tsx).
          void queryClient.invalidateQueries({
            queryKey: trpc.audits.disagreements.queryKey({ runId }),
          });
        } else {
          void queryClient.invalidateQueries({ queryKey: trpc.runs.episodes.pathKey() });
        }
      }, ms);
    },
    [queryClient, trpc, runId],
  );
  useEffect(() => {
    const t = timers.current;
    return () => {
      clearTimeout(t.summary);
      clearTimeout(t.list);
    };
  }, []);
  return useCallback(() => {
    schedule('summary', SUMMARY_MS);
    schedule('list', LIST_MS);
  }, [schedule]);
}

/**
 * Ended episodes go straight into the cached episode list, so their rows appear without waiting
 * for a refetch, and the progress they come with goes into the cached summary in the same batch:
 * Progress and the episode table's count move together. Events are applied in small batches (one
 * render per batch, not per event); the coalesced refresh then brings the exact stored rows and
 * metrics.
 */
function useEpisodeBatches(runId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pending = useRef<EpisodeEndedPayload[]>([]);
  const progress = useRef<number | undefined>(undefined);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flush = useCallback(() => {
    flushTimer.current = undefined;
    const batch = pending.current;
    const done = progress.current;
    pending.current = [];
    progress.current = undefined;
    if (batch.length > 0) {
      queryClient.setQueryData(trpc.runs.episodes.queryKey({ runId, limit: 1000 }), (old) =>
        mergeEndedEpisodes(old, batch, runId),
      );
    }
    if (done !== undefined) {
      queryClient.setQueryData(trpc.runs.byId.queryKey({ id: runId }), (old) =>
        withProgress(old, done),
      );
    }
  }, [queryClient, trpc, runId]);
  useEffect(() => () => clearTimeout(flushTimer.current), []);
  return useCallback(
    (payload: EpisodeEndedPayload | null, done?: number) => {
      if (payload) pending.current.push(payload);
      if (done !== undefined) progress.current = Math.max(progress.current ?? 0, done);
      flushTimer.current ??= setTimeout(flush, 100);
    },
    [flush],
  );
}
