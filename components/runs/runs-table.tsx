'use client';
// Runs with their outcome, success rate (and interval), failure distribution, steps and errors.
// On /runs the filters, search and sort live in the URL and the server filters, sorts and pages
// (cursor); a task page shows its runs compact. Two runs can be picked for a comparison.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, GitCompare } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import type { RunSortKey } from '../../contracts/run-list.ts';
import { isFinalStatus } from '../../contracts/runs.ts';
import { togglePick } from '../compare/model.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TH, THead, TR } from '../ui/table.tsx';
import { type ListState, listStateOf, nextSort, sortPatch } from './list-state.ts';
import { RunsFilters } from './runs-filters.tsx';
import { RunRow } from './runs-row.tsx';

const PAGE = 50;

/**
 * `/runs`: the whole list, its view state in the URL. With a fixed `filter` (a task page's runs)
 * it shows that list, newest first, without filters.
 */
export function RunsTable({
  filter,
  compact = false,
}: {
  filter?: { bridge?: string; task?: string };
  compact?: boolean;
}) {
  if (filter) {
    const { task, ...rest } = filter;
    return (
      <RunsGrid
        state={{ filter: rest, sort: 'started', dir: 'desc' }}
        {...(task ? { task } : {})}
        compact={compact}
        filtered={false}
      />
    );
  }
  return <UrlRunsTable />;
}

function UrlRunsTable() {
  const url = useUrlState();
  const state = listStateOf(url.params);
  return (
    <div>
      <RunsFilters state={state} onChange={(patch) => url.set(patch)} />
      <RunsGrid
        state={state}
        onSort={(key) => url.set(sortPatch(nextSort(state, key)))}
        filtered={Object.values(state.filter).some(Boolean)}
      />
    </div>
  );
}

function RunsGrid({
  state,
  task,
  compact = false,
  filtered,
  onSort,
}: {
  state: ListState;
  task?: string;
  compact?: boolean;
  filtered: boolean;
  onSort?: (key: RunSortKey) => void;
}) {
  const trpc = useTRPC();
  const input = {
    ...state.filter,
    ...(task ? { task } : {}),
    sort: state.sort,
    dir: state.dir,
    limit: PAGE,
  };
  const runs = useInfiniteQuery({
    ...trpc.runs.list.infiniteQueryOptions(input, { getNextPageParam: (p) => p.nextCursor }),
    // Another filter or sort keeps the rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    // A list shows in-flight runs moving without a subscription per row.
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((r) => !isFinalStatus(r.status))) ? 1500 : false,
  });
  const [picked, setPicked] = useState<string[]>([]);

  if (runs.isPending) return <Skeleton className="h-32" />;
  if (runs.error) return <ErrorNote error={runs.error} />;
  const items = runs.data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return filtered ? (
      <EmptyState title="No run matches these filters" />
    ) : (
      <EmptyState title="No runs yet">Launch a baseline run to see how a policy does.</EmptyState>
    );
  }
  const header = (key: RunSortKey, label: string, className?: string) => (
    <SortHeader sortKey={key} label={label} state={state} onSort={onSort} className={className} />
  );
  return (
    <div>
      {!compact ? <ComparePicked picked={picked} /> : null}
      <Table
        data-testid="runs-table"
        // The rows of the previous filter or sort, shown until the new ones arrive.
        data-stale={runs.isPlaceholderData ? 'true' : undefined}
        data-view={viewKey(input)}
        className={runs.isPlaceholderData ? 'opacity-60' : undefined}
      >
        <THead>
          <TR>
            {!compact ? <TH className="w-8" /> : null}
            {header('run', 'Run')}
            {!compact ? header('task', 'Task') : null}
            {header('policy', 'Policy')}
            {header('status', 'Status')}
            {header('success', 'Success (95% CI)', 'text-right')}
            {header('steps', 'Mean steps', 'text-right')}
            {header('failures', 'Failures')}
            {header('errors', 'Errors', 'text-right')}
            {header('started', 'Started')}
          </TR>
        </THead>
        <TBody data-testid="run-rows">
          {items.map((r) => (
            <RunRow
              key={r.id}
              run={r}
              compact={compact}
              picked={picked.includes(r.id)}
              onToggle={() => setPicked((p) => togglePick(p, r.id))}
            />
          ))}
        </TBody>
      </Table>
      {runs.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button
            variant="outline"
            size="sm"
            data-testid="runs-more"
            disabled={runs.isFetchingNextPage}
            onClick={() => void runs.fetchNextPage()}
          >
            {runs.isFetchingNextPage ? 'Loading…' : 'Load more runs'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The list's filters and sort as one string (tests wait for the rows of a given view). */
function viewKey(input: Record<string, string | number | undefined>): string {
  return Object.entries(input)
    .filter(([k, v]) => k !== 'limit' && v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function SortHeader({
  sortKey,
  label,
  state,
  onSort,
  className,
}: {
  sortKey: RunSortKey;
  label: string;
  state: ListState;
  onSort: ((key: RunSortKey) => void) | undefined;
  className?: string | undefined;
}) {
  const active = state.sort === sortKey;
  const aria = active ? (state.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  if (!onSort) return <TH className={className}>{label}</TH>;
  const Icon = active ? (state.dir === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <TH className={className} aria-sort={aria}>
      <button
        type="button"
        data-testid={`sort-${sortKey}`}
        data-active={active ? state.dir : undefined}
        onClick={() => onSort(sortKey)}
        className="inline-flex items-center gap-1 whitespace-nowrap hover:text-foreground"
      >
        {label}
        <Icon className={active ? 'size-3 text-foreground' : 'size-3 opacity-40'} />
      </button>
    </TH>
  );
}

function ComparePicked({ picked }: { picked: string[] }) {
  return (
    <div className="mb-3 flex items-center gap-3 text-sm text-muted-foreground">
      <span>Pick two runs to compare them side by side.</span>
      <Button
        size="sm"
        variant="outline"
        disabled={picked.length !== 2}
        asChild={picked.length === 2}
        data-testid="compare-picked"
      >
        {picked.length === 2 ? (
          <Link href={`/compare?runs=${picked[0]}..${picked[1]}`}>
            <GitCompare /> Compare {picked.length}/2
          </Link>
        ) : (
          <span className="inline-flex items-center gap-2">
            <GitCompare /> Compare {picked.length}/2
          </span>
        )}
      </Button>
    </div>
  );
}
