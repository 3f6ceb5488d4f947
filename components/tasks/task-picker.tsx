'use client';
// Journey 1: pick a benchmark task. Bridges on the left, their tasks on the right, filtered by
// split / type / text — every filter in the URL.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ChevronRight, Search } from 'lucide-react';
import Link from 'next/link';
import { useDeferredValue } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Input, Label, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { taskHref } from './links.ts';

export function TaskPicker() {
  const trpc = useTRPC();
  const url = useUrlState();
  const bridges = useQuery(trpc.bridges.list.queryOptions());
  const selected = url.get('bridge') ?? bridges.data?.[0]?.name;
  const bridge = bridges.data?.find((b) => b.name === selected);
  const split = url.get('split') ?? '';
  const type = url.get('type') ?? '';
  const text = useDeferredValue(url.get('q') ?? '');

  const tasks = useInfiniteQuery({
    ...trpc.tasks.list.infiniteQueryOptions(
      {
        bridge: selected ?? '',
        split: split || undefined,
        type: type || undefined,
        text: text || undefined,
        limit: 100,
      },
      { getNextPageParam: (last) => last.nextCursor },
    ),
    enabled: Boolean(selected),
  });
  const items = tasks.data?.pages.flatMap((p) => p.items) ?? [];
  const total = tasks.data?.pages[0]?.total;

  return (
    <div>
      <PageHeader
        title="Benchmark tasks"
        description="Pick an environment and a task: read its goal, tools and state, watch a baseline policy on it, then wrap it in a harness."
      />
      <ErrorNote error={bridges.error} />
      <div className="grid gap-6 lg:grid-cols-[280px_1fr]">
        <aside className="flex flex-col gap-2" aria-label="Bridges">
          {bridges.isPending ? [0, 1].map((i) => <Skeleton key={i} className="h-24" />) : null}
          {bridges.data?.length === 0 ? <EmptyState title="No bridges registered" /> : null}
          {bridges.data?.map((b) => (
            <button
              type="button"
              key={b.name}
              data-testid={`bridge-${b.name}`}
              aria-pressed={b.name === selected}
              onClick={() => url.set({ bridge: b.name, split: null, type: null, q: null })}
              className={cn(
                'rounded-xl border bg-card p-4 text-left transition-colors hover:border-primary/50',
                b.name === selected && 'border-primary ring-1 ring-primary',
              )}
            >
              <div className="flex items-center justify-between">
                <span className="font-mono text-sm font-semibold">{b.name}</span>
                <Badge variant="outline">{b.taskCount.toLocaleString()} tasks</Badge>
              </div>
              <p className="mt-1.5 line-clamp-3 text-xs text-muted-foreground">{b.description}</p>
            </button>
          ))}
        </aside>

        <section className="min-w-0 rounded-xl border bg-card">
          <div className="flex flex-wrap items-end gap-3 border-b p-4">
            <div className="flex flex-col gap-1">
              <Label htmlFor="f-split">Split</Label>
              <Select
                id="f-split"
                data-testid="filter-split"
                value={split}
                onChange={(e) => url.set({ split: e.target.value })}
              >
                <option value="">All splits</option>
                {bridge?.splits.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="f-type">Type</Label>
              <Select
                id="f-type"
                data-testid="filter-type"
                value={type}
                onChange={(e) => url.set({ type: e.target.value })}
              >
                <option value="">All types</option>
                {bridge?.types.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex min-w-60 flex-1 flex-col gap-1">
              <Label htmlFor="f-text">Search</Label>
              <div className="relative">
                <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
                <Input
                  id="f-text"
                  data-testid="filter-text"
                  className="pl-8"
                  placeholder="Task id or goal text"
                  defaultValue={url.get('q') ?? ''}
                  onChange={(e) => url.set({ q: e.target.value })}
                />
              </div>
            </div>
            <div className="ml-auto pb-2 text-sm text-muted-foreground" data-testid="task-count">
              {total === undefined ? '…' : `${total.toLocaleString()} matching`}
            </div>
          </div>
          <ErrorNote error={tasks.error} />
          <div className="max-h-[calc(100vh-280px)] min-h-[320px] overflow-auto">
            <Table>
              <THead className="sticky top-0 z-10 bg-card">
                <TR>
                  <TH>Task</TH>
                  <TH>Type</TH>
                  <TH>Split</TH>
                  <TH className="text-right">Difficulty</TH>
                  <TH>Goal</TH>
                  <TH className="w-8" />
                </TR>
              </THead>
              <TBody data-testid="task-rows">
                {items.map((t) => (
                  <TR key={t.id} className="group">
                    <TD className="font-mono text-xs whitespace-nowrap">
                      <Link
                        href={taskHref(selected ?? '', t.id)}
                        className="hover:text-primary hover:underline"
                        data-testid="task-link"
                      >
                        {t.id}
                      </Link>
                    </TD>
                    <TD>
                      <Badge variant="accent">{t.type}</Badge>
                    </TD>
                    <TD className="text-xs text-muted-foreground">{t.split}</TD>
                    <TD className="text-right text-xs text-muted-foreground tabular-nums">
                      {t.difficulty === undefined ? '—' : t.difficulty.toFixed(2)}
                    </TD>
                    <TD className="max-w-[520px] truncate text-sm" title={t.goal}>
                      {t.goal}
                    </TD>
                    <TD>
                      <ChevronRight className="size-4 text-muted-foreground opacity-0 group-hover:opacity-100" />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          </div>
          {tasks.isPending && selected ? <Skeleton className="m-4 h-40" /> : null}
          {tasks.data && items.length === 0 ? (
            <div className="p-4">
              <EmptyState title="No task matches these filters" />
            </div>
          ) : null}
          {tasks.hasNextPage ? (
            <div className="flex justify-center border-t p-3">
              <Button
                variant="outline"
                size="sm"
                onClick={() => tasks.fetchNextPage()}
                disabled={tasks.isFetchingNextPage}
              >
                {tasks.isFetchingNextPage ? 'Loading…' : `Show more (${items.length} of ${total})`}
              </Button>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
