'use client';
// A run whose episodes' summed step reward and verifier verdict disagree (positive reward with a
// failed, uncredited verdict, or a success paid nothing): a warning with those episodes. Refreshed
// with the run's summary on every live event (use-live-run.ts), so it appears while the run plays.
import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { disagreementText } from '../../contracts/audit.ts';
import { useTRPC } from '../trpc/client.tsx';

export function RewardVerdictWarning({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.audits.disagreements.queryOptions({ runId }));
  const d = q.data;
  if (!d || d.total === 0) return null;
  return (
    <div
      role="alert"
      data-testid="reward-verdict-warning"
      className="mt-4 rounded-xl border border-warning/40 bg-warning-soft p-4 text-sm"
    >
      <div className="flex items-center gap-2 font-medium text-warning">
        <TriangleAlert className="size-4" />
        Reward and verdict disagree in {d.total} of {d.checked} scored episode
        {d.checked === 1 ? '' : 's'}: the reward signal and the benchmark's verifier do not tell the
        same story. Check the verifier before training on these rewards.
      </div>
      <ul className="mt-2 space-y-1">
        {d.items.map((e) => (
          <li key={e.episodeId} data-testid="disagreeing-episode">
            <Link
              href={`/runs/${runId}/episodes/${e.episodeId}`}
              className="font-mono text-primary hover:underline"
            >
              #{e.ordinal + 1} {e.taskId} · seed {e.seed}
            </Link>{' '}
            <span className="text-muted-foreground">{disagreementText(e.kind, e.reward)}</span>
          </li>
        ))}
      </ul>
      {d.total > d.items.length ? (
        <div className="mt-1 text-xs text-muted-foreground">
          … and {d.total - d.items.length} more.
        </div>
      ) : null}
    </div>
  );
}
