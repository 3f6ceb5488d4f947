'use client';
// Finished episodes of a run, newest outcome classes filterable (?filter=failures|errors|successes).
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type * as React from 'react';
import { memo } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { episodeUsage, shortTokens } from '../llm/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { cn } from '../ui/cn.ts';
import { EmptyState } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { duration, failureLabel, num, outcomeVariant } from './format.ts';

const FILTERS = [
  { id: '', label: 'All' },
  { id: 'successes', label: 'Successes', outcome: 'success' },
  { id: 'failures', label: 'Failures only', outcome: 'failure' },
  { id: 'errors', label: 'Errors only', outcome: 'error' },
] as const;

/** How many finished episodes each filter holds: the run summary's counts, the same numbers as the
 * run's Progress (rows may appear from live events a moment before the counts move). */
export interface EpisodeCounts {
  all: number;
  success: number;
  failure: number;
  error: number;
}

export function EpisodesTable({ runId, counts }: { runId: string; counts: EpisodeCounts }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const filterId = url.get('filter') ?? '';
  const filter = FILTERS.find((f) => f.id === filterId) ?? FILTERS[0];
  const outcome = 'outcome' in filter ? filter.outcome : undefined;
  const episodes = useQuery(
    trpc.runs.episodes.queryOptions({ runId, limit: 1000, ...(outcome ? { outcome } : {}) }),
  );
  const items = episodes.data?.items ?? [];
  const count = counts[outcome ?? 'all'];
  // A column for tokens only when the run's policy reported any (LLM policies).
  const withTokens = items.some((e) => episodeUsage(e) !== null);

  return (
    <div>
      <div className="mb-3 flex gap-1" role="tablist" aria-label="Episode filter">
        {FILTERS.map((f) => (
          <button
            type="button"
            role="tab"
            key={f.id}
            aria-selected={f.id === filter.id}
            data-testid={`episode-filter-${f.id || 'all'}`}
            onClick={() => url.set({ filter: f.id })}
            className={cn(
              'rounded-md px-3 py-1 text-sm text-muted-foreground hover:bg-muted',
              f.id === filter.id && 'bg-muted font-medium text-foreground',
            )}
          >
            {f.label}
          </button>
        ))}
        <span
          className="ml-auto self-center text-sm text-muted-foreground"
          data-testid="episode-count"
        >
          {count} episode{count === 1 ? '' : 's'}
        </span>
      </div>
      {episodes.data && items.length === 0 ? <EmptyState title="No episodes here yet" /> : null}
      {items.length > 0 ? (
        <div className="max-h-[520px] overflow-auto rounded-lg border">
          <Table>
            <THead className="sticky top-0 bg-card">
              <TR>
                <TH>#</TH>
                <TH>Task</TH>
                <TH className="text-right">Seed</TH>
                <TH>Outcome</TH>
                <TH>Why</TH>
                <TH className="text-right">Steps</TH>
                <TH className="text-right">Reward</TH>
                {withTokens ? <TH className="text-right">Tokens</TH> : null}
                <TH className="text-right">Time</TH>
              </TR>
            </THead>
            <EpisodeRows runId={runId} items={items} withTokens={withTokens} />
          </Table>
        </div>
      ) : null}
    </div>
  );
}

type EpisodeItem = RouterOutputs['runs']['episodes']['items'][number];

// While a run streams, the count above moves with every event but the rows only when episodes
// end: the body renders only then, and in it only the new rows (the rest keep their identity).
const EpisodeRows = memo(function EpisodeRows({
  runId,
  items,
  withTokens,
}: {
  runId: string;
  items: EpisodeItem[];
  withTokens: boolean;
}) {
  return (
    <TBody data-testid="episode-rows">
      {items.map((e) => (
        <EpisodeRowView key={e.id} runId={runId} e={e} withTokens={withTokens} />
      ))}
    </TBody>
  );
});

// Rows are memoised: while a run streams, only the rows of newly ended episodes render (the live
// merge and the query cache keep the identity of unchanged rows).
const EpisodeRowView = memo(function EpisodeRowView({
  runId,
  e,
  withTokens,
}: {
  runId: string;
  e: EpisodeItem;
  withTokens: boolean;
}) {
  const router = useRouter();
  const href = `/runs/${runId}/episodes/${e.id}`;
  // The whole row opens the episode; the task link inside stays the keyboard and middle-click way.
  const open = (ev: React.MouseEvent) => {
    if ((ev.target as HTMLElement).closest('a')) return;
    if (ev.metaKey || ev.ctrlKey) window.open(href, '_blank');
    else router.push(href);
  };
  return (
    <TR
      data-testid="episode-row"
      data-episode-id={e.id}
      data-outcome={e.outcome ?? ''}
      className="cursor-pointer"
      onClick={open}
    >
      <TD className="tabular-nums text-muted-foreground">{e.ordinal + 1}</TD>
      <TD className="font-mono text-xs">
        <Link href={href} className="text-primary hover:underline" data-testid="episode-link">
          {e.taskId}
        </Link>
      </TD>
      <TD className="text-right tabular-nums">{e.seed}</TD>
      <TD>
        <Badge variant={outcomeVariant(e.outcome)}>{e.outcome ?? e.status}</Badge>
      </TD>
      <TD
        className="max-w-[360px] truncate text-xs text-muted-foreground"
        title={e.errorMessage ?? undefined}
      >
        {e.outcome === 'failure' && e.failureCategory ? failureLabel(e.failureCategory) : null}
        {e.outcome === 'error' ? `${e.errorKind ?? 'error'}: ${e.errorMessage ?? ''}` : null}
      </TD>
      <TD className="text-right tabular-nums">{e.steps}</TD>
      <TD className="text-right tabular-nums">{num(e.reward, 2)}</TD>
      {withTokens ? <EpisodeTokensCell e={e} /> : null}
      <TD className="text-right text-xs tabular-nums text-muted-foreground">
        {duration(e.durationMs)}
      </TD>
    </TR>
  );
});

function EpisodeTokensCell({ e }: { e: EpisodeItem }) {
  const u = episodeUsage(e);
  return (
    <TD
      className="text-right text-xs tabular-nums text-muted-foreground"
      data-testid="episode-tokens-cell"
      title={u ? `${u.prompt} prompt (${u.cached} cached) · ${u.completion} completion` : undefined}
    >
      {u ? shortTokens(u.prompt + u.completion) : '—'}
    </TD>
  );
}
