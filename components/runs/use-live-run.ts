'use client';
// Keeps a run's queries fresh while it is in flight: one SSE subscription (resumable: tRPC sends
// lastEventId on reconnect), and each event invalidates the run's summary and episode list —
// coalesced, so a burst of events costs one refetch.
import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';

type EpisodeRow = RouterOutputs['runs']['episodes']['items'][number];

/** What the rollout service puts in an episode_ended event. */
interface EpisodeEndedPayload {
  episodeId: string;
  ordinal: number;
  taskId: string;
  seed: number;
  outcome: string | null;
  failureCategory: string | null;
  errorKind: string | null;
  error: string | null;
  steps: number;
  reward: number | null;
  durationMs: number;
}

// The summary (rate, interval, charts) refreshes at most this often while events stream; rows
// appear at once from the events themselves, and the stored list is re-read less often.
const SUMMARY_MS = 400;
const LIST_MS = 2500;

export function useLiveRun(runId: string, active: boolean) {
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
        } else {
          void queryClient.invalidateQueries({ queryKey: trpc.runs.episodes.pathKey() });
        }
      }, ms);
    },
    [queryClient, trpc, runId],
  );
  const refresh = useCallback(() => {
    schedule('summary', SUMMARY_MS);
    schedule('list', LIST_MS);
  }, [schedule]);

  useEffect(() => {
    const t = timers.current;
    return () => {
      clearTimeout(t.summary);
      clearTimeout(t.list);
    };
  }, []);

  // Ended episodes go straight into the cached episode list, so their rows appear without waiting
  // for a refetch; events are applied in small batches (one render per batch, not per event) and
  // the coalesced refresh then brings the exact stored rows and metrics.
  const pending = useRef<EpisodeEndedPayload[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flush = useCallback(() => {
    flushTimer.current = undefined;
    const batch = pending.current;
    pending.current = [];
    if (batch.length === 0) return;
    queryClient.setQueryData(trpc.runs.episodes.queryKey({ runId, limit: 1000 }), (old) => {
      if (!old) return old;
      const known = new Set(old.items.map((e) => e.id));
      const added: EpisodeRow[] = batch
        .filter((p) => !known.has(p.episodeId))
        .map((payload) => ({
          id: payload.episodeId,
          runId,
          taskId: payload.taskId,
          seed: payload.seed,
          ordinal: payload.ordinal,
          status: 'done' as EpisodeRow['status'],
          attempt: 0,
          outcome: payload.outcome as EpisodeRow['outcome'],
          failureCategory: payload.failureCategory as EpisodeRow['failureCategory'],
          errorKind: payload.errorKind as EpisodeRow['errorKind'],
          errorMessage: payload.error,
          steps: payload.steps,
          reward: payload.reward,
          durationMs: payload.durationMs,
          startedAt: null,
          finishedAt: null,
        }));
      if (added.length === 0) return old;
      return { ...old, items: [...old.items, ...added].sort((a, b) => a.ordinal - b.ordinal) };
    });
  }, [queryClient, trpc, runId]);
  const addEpisode = useCallback(
    (payload: EpisodeEndedPayload) => {
      pending.current.push(payload);
      flushTimer.current ??= setTimeout(flush, 100);
    },
    [flush],
  );
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const sub = useSubscription(
    trpc.runs.live.subscriptionOptions(
      { runId },
      {
        enabled: active,
        // Anything that happened between the first fetch and the stream opening is caught here.
        onStarted: refresh,
        onData: (tracked) => {
          const event = tracked.data;
          if (event.type === 'episode_ended')
            addEpisode(event.payload as unknown as EpisodeEndedPayload);
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
