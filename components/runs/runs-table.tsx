'use client';
// Runs with their success rate (and interval), failure distribution, steps and errors. Two runs can
// be picked for a side-by-side comparison.
import { useQuery } from '@tanstack/react-query';
import { GitCompare } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { FailureBar } from '../charts/failure-bar.tsx';
import { togglePick } from '../compare/model.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { EmptyState, ErrorNote, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { ago, interval, num, pct, shortId } from './format.ts';
import { RunStatus } from './run-status.tsx';

type RunItem = RouterOutputs['runs']['list']['items'][number];

export function RunsTable({
  filter,
  compact = false,
}: {
  filter?: { bridge?: string; task?: string };
  compact?: boolean;
}) {
  const trpc = useTRPC();
  const runs = useQuery({
    ...trpc.runs.list.queryOptions({ limit: 50, ...filter }),
    // A list shows in-flight runs moving without a subscription per row.
    refetchInterval: (q) =>
      q.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running')
        ? 1500
        : false,
  });
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => togglePick(p, id));

  if (runs.isPending) return <Skeleton className="h-32" />;
  if (runs.error) return <ErrorNote error={runs.error} />;
  const items = runs.data.items;
  if (items.length === 0) {
    return (
      <EmptyState title="No runs yet">Launch a baseline run to see how a policy does.</EmptyState>
    );
  }
  return (
    <div>
      {!compact ? <ComparePicked picked={picked} /> : null}
      <Table>
        <THead>
          <TR>
            {!compact ? <TH className="w-8" /> : null}
            <TH>Run</TH>
            {!compact ? <TH>Task</TH> : null}
            <TH>Policy</TH>
            <TH>Status</TH>
            <TH className="text-right">Success</TH>
            <TH className="text-right">95% CI</TH>
            <TH className="text-right">Mean steps</TH>
            <TH className="min-w-48">Failures</TH>
            <TH className="text-right">Errors</TH>
            <TH>Started</TH>
          </TR>
        </THead>
        <TBody data-testid="run-rows">
          {items.map((r) => (
            <RunRow
              key={r.id}
              run={r}
              compact={compact}
              picked={picked.includes(r.id)}
              onToggle={() => toggle(r.id)}
            />
          ))}
        </TBody>
      </Table>
    </div>
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

function RunRow({
  run: r,
  compact,
  picked,
  onToggle,
}: {
  run: RunItem;
  compact: boolean;
  picked: boolean;
  onToggle: () => void;
}) {
  return (
    <TR data-testid="run-row" data-run-id={r.id}>
      {!compact ? (
        <TD>
          <input
            type="checkbox"
            aria-label={`Pick run ${r.id} for comparison`}
            data-testid="pick-run"
            checked={picked}
            onChange={onToggle}
          />
        </TD>
      ) : null}
      <TD>
        <Link
          href={`/runs/${r.id}`}
          className="font-mono text-xs text-primary hover:underline"
          data-testid="run-link"
        >
          {shortId(r.id)}
        </Link>
        <div className="mt-0.5 flex gap-1">
          <Badge variant={r.kind === 'validation' ? 'info' : 'outline'}>{r.kind}</Badge>
          {r.harnessed ? <Badge variant="accent">harnessed</Badge> : null}
        </div>
      </TD>
      {!compact ? (
        <TD className="font-mono text-xs whitespace-nowrap">
          {r.bridge}:{r.task}
        </TD>
      ) : null}
      <TD className="font-mono text-xs whitespace-nowrap">{r.policy}</TD>
      <TD>
        <RunStatus status={r.status} done={r.episodesDone} total={r.episodesTotal} />
      </TD>
      <TD className="text-right font-semibold tabular-nums" data-testid="run-success">
        {pct(r.metrics.successRate)}
      </TD>
      <TD className="text-right text-xs whitespace-nowrap text-muted-foreground tabular-nums">
        {r.metrics.successRate === null ? '—' : interval(r.metrics.interval)}
      </TD>
      <TD className="text-right tabular-nums">{num(r.metrics.meanSteps)}</TD>
      <TD>
        <FailureBar distribution={r.metrics.failureDistribution} />
      </TD>
      <TD className="text-right tabular-nums">{r.metrics.errors}</TD>
      <TD className="text-xs whitespace-nowrap text-muted-foreground">{ago(r.createdAt)}</TD>
    </TR>
  );
}
