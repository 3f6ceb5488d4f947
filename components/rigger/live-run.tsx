'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
// A rig's run (baseline or validation) as it happens: the run's SSE event stream (runs.live, through
// the run page's useLiveRun) pushes each ended episode into the cached list and refreshes the
// summary, so the rig page needs no polling for rollout progress.
import { isFinalStatus } from '../../contracts/runs.ts';
import { pct } from '../runs/format.ts';
import { useLiveRun } from '../runs/use-live-run.ts';
import { useTRPC } from '../trpc/client.tsx';

const OUTCOME_CLASS: Record<string, string> = {
  success: 'bg-success',
  failure: 'bg-danger',
  error: 'bg-warning',
};

export function LiveRunProgress({
  runId,
  label,
  onFinished,
}: {
  runId: string;
  label: string;
  /** Called once when the run reaches a final status (the rig row moves on right after). */
  onFinished?: () => void;
}) {
  const trpc = useTRPC();
  const run = useQuery(trpc.runs.byId.queryOptions({ id: runId }));
  // Same key as useLiveRun's cache pushes, so streamed episodes land here without a refetch.
  const episodes = useQuery(trpc.runs.episodes.queryOptions({ runId, limit: 1000 }));
  const status = run.data?.status;
  const inFlight = status !== undefined && !isFinalStatus(status);
  const live = useLiveRun(runId, inFlight);
  const finished = useRef(false);
  useEffect(() => {
    if (status && isFinalStatus(status) && !finished.current) {
      finished.current = true;
      onFinished?.();
    }
  }, [status, onFinished]);

  const total = run.data?.episodesTotal ?? 0;
  const rows = episodes.data?.items ?? [];
  const done = Math.max(run.data?.episodesDone ?? 0, rows.filter((e) => e.outcome).length);
  const successes = rows.filter((e) => e.outcome === 'success').length;
  const scored = rows.filter((e) => e.outcome === 'success' || e.outcome === 'failure').length;
  return (
    <div
      className="flex flex-wrap items-center gap-3 text-xs"
      data-testid="live-run"
      data-run-id={runId}
      data-stream={inFlight ? live.status : 'closed'}
      data-done={done}
    >
      <span className="text-muted-foreground">{label}</span>
      <div className="h-2 w-32 overflow-hidden rounded-full bg-muted">
        <div
          className="h-full bg-primary transition-all"
          style={{ width: `${total ? (done / total) * 100 : 0}%` }}
        />
      </div>
      <span className="tabular-nums" data-testid="live-run-count">
        {done}/{total || '…'} episodes
      </span>
      <span className="flex gap-1">
        {rows.map((e) => (
          <span
            key={e.id}
            title={`seed ${e.seed}: ${e.outcome ?? 'running'}`}
            className={`size-2.5 rounded-full ${OUTCOME_CLASS[e.outcome ?? ''] ?? 'bg-muted-foreground/30'}`}
          />
        ))}
      </span>
      {scored > 0 ? (
        <span className="tabular-nums">{pct(successes / scored, 0)} so far</span>
      ) : null}
      {inFlight ? (
        <span className="text-muted-foreground">
          {live.status === 'pending'
            ? '● live'
            : live.status === 'connecting'
              ? '○ connecting'
              : ''}
        </span>
      ) : null}
    </div>
  );
}
