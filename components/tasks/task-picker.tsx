'use client';
// Journey 1: pick a benchmark task. Bridges on the left, their tasks on the right, filtered by
// split / type / text — every filter in the URL.
import { ChevronRight, Search } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Field } from '../ui/field.tsx';
import { Input, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { countOf } from '../ui/plural.ts';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { AuditMark, useAuditVerdicts } from './audit-mark.tsx';
import { AvailabilityNote } from './availability-note.tsx';
import { taskHref } from './links.ts';
import { type TaskPickerState, useTaskPicker } from './use-task-picker.ts';

export function TaskPicker() {
  const p = useTaskPicker();
  return (
    <div>
      <PageHeader
        title="Benchmark tasks"
        description="Pick an environment and a task: read its goal, tools and state, watch a baseline policy on it, then wrap it in a harness."
      />
      <ErrorNote error={p.bridges.error} />
      <div className="grid gap-6 lg:grid-cols-[280px_1fr]">
        <BridgeList p={p} />
        <section className="min-w-0 rounded-xl border bg-card">
          <TaskFilters p={p} />
          <ErrorNote error={p.tasks.error} />
          <TaskTable p={p} />
          {p.tasks.isPending && p.selected ? <Skeleton className="m-4 h-40" /> : null}
          {p.tasks.data && p.items.length === 0 ? (
            <div className="p-4">
              <EmptyState title="No task matches these filters" />
            </div>
          ) : null}
          {p.tasks.hasNextPage ? (
            <div className="flex justify-center border-t p-3">
              <Button
                variant="outline"
                size="sm"
                onClick={() => p.tasks.fetchNextPage()}
                disabled={p.tasks.isFetchingNextPage}
              >
                {p.tasks.isFetchingNextPage
                  ? 'Loading…'
                  : `Show more (${p.items.length} of ${p.total})`}
              </Button>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}

function BridgeList({ p }: { p: TaskPickerState }) {
  const verdicts = useAuditVerdicts();
  return (
    <aside className="flex flex-col gap-2" aria-label="Bridges">
      {p.bridges.isPending ? [0, 1].map((i) => <Skeleton key={i} className="h-24" />) : null}
      {p.bridges.data?.length === 0 ? <EmptyState title="No bridges registered" /> : null}
      {p.bridges.data?.map((b) => (
        <button
          type="button"
          key={b.name}
          data-testid={`bridge-${b.name}`}
          aria-pressed={b.name === p.selected}
          onClick={() => p.set({ bridge: b.name, split: null, type: null, q: null })}
          className={cn(
            'rounded-xl border bg-card p-4 text-left transition-colors hover:border-primary/50',
            b.name === p.selected && 'border-primary ring-1 ring-primary',
          )}
        >
          <div className="flex items-center justify-between">
            <span className="font-mono text-sm font-semibold">{b.name}</span>
            {b.availability.available ? (
              <Badge variant="outline">{countOf(b.taskCount, 'task')}</Badge>
            ) : (
              <Badge variant="warning">unavailable</Badge>
            )}
          </div>
          <p className="mt-1.5 line-clamp-3 text-xs text-muted-foreground">{b.description}</p>
          <AvailabilityNote availability={b.availability} />
          <AuditMark verdict={verdicts.get(b.name)} />
        </button>
      ))}
    </aside>
  );
}

function TaskFilters({ p }: { p: TaskPickerState }) {
  return (
    <div className="flex flex-wrap items-end gap-3 border-b p-4">
      <Field label="Split" htmlFor="f-split">
        <Select
          id="f-split"
          data-testid="filter-split"
          value={p.split}
          onChange={(e) => p.set({ split: e.target.value })}
        >
          <option value="">All splits</option>
          {p.bridge?.splits.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Type" htmlFor="f-type">
        <Select
          id="f-type"
          data-testid="filter-type"
          value={p.type}
          onChange={(e) => p.set({ type: e.target.value })}
        >
          <option value="">All types</option>
          {p.bridge?.types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Search" htmlFor="f-text" className="min-w-60 flex-1">
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            id="f-text"
            data-testid="filter-text"
            className="pl-8"
            placeholder="Task id or goal text"
            defaultValue={p.query}
            onChange={(e) => p.set({ q: e.target.value })}
          />
        </div>
      </Field>
      <div className="ml-auto pb-2 text-sm text-muted-foreground" data-testid="task-count">
        {p.total === undefined ? '…' : `${p.total.toLocaleString()} matching`}
      </div>
    </div>
  );
}

function TaskTable({ p }: { p: TaskPickerState }) {
  return (
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
          {p.items.map((t) => (
            <TR key={t.id} className="group">
              <TD className="font-mono text-xs whitespace-nowrap">
                <Link
                  href={taskHref(p.selected ?? '', t.id)}
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
  );
}
