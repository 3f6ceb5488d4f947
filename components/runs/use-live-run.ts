'use client';
// Keeps a run's queries fresh while it is in flight: one SSE subscription (resumable: tRPC sends
// lastEventId on reconnect), and each event invalidates the run's summary and episode list —
// coalesced, so a burst of events costs one refetch.
import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTRPC } from '../trpc/client.tsx';

const COALESCE_MS = 120;

export function useLiveRun(runId: string, active: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const refresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: trpc.runs.byId.queryKey({ id: runId }) });
      void queryClient.invalidateQueries({ queryKey: trpc.runs.episodes.pathKey() });
    }, COALESCE_MS);
  }, [queryClient, trpc, runId]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const sub = useSubscription(
    trpc.runs.live.subscriptionOptions(
      { runId },
      {
        enabled: active,
        // Anything that happened between the first fetch and the stream opening is caught here.
        onStarted: refresh,
        onData: refresh,
      },
    ),
  );
  return { status: sub.status, error: sub.error };
}
