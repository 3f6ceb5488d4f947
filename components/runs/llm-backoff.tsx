'use client';
// While a run is in flight: the model endpoints its episodes wait on because of rate limits (429),
// with the time left and the retries so far. Live state, polled (it is not in the event log).
import { useQuery } from '@tanstack/react-query';
import { Hourglass } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import { backoffText } from './backoff-text.ts';

export function RunBackoff({ runId, inFlight }: { runId: string; inFlight: boolean }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.runs.backoff.queryOptions({ id: runId }),
    enabled: inFlight,
    refetchInterval: inFlight ? 1000 : false,
  });
  const backoffs = inFlight ? (q.data ?? []) : [];
  const [now, setNow] = useState(() => Date.now());
  const ticking = backoffs.length > 0;
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  if (!ticking) return null;
  return (
    <div
      role="status"
      data-testid="run-backoff"
      className="mt-4 space-y-1 rounded-xl border border-warning/40 bg-warning-soft p-4 text-sm"
    >
      {backoffs.map((b) => (
        <div key={b.endpoint} className="flex items-center gap-2 text-warning">
          <Hourglass className="size-4" />
          {backoffText(b, Math.max(0, now - q.dataUpdatedAt))}
        </div>
      ))}
    </div>
  );
}
