'use client';
// Journey 7 (and the core of journey 6): two runs side by side, the same metrics in the same rows,
// differences marked — a change is "clear" when the two Wilson intervals do not overlap.
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Minus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { FailureBar } from '../charts/failure-bar.tsx';
import { SuccessInterval } from '../charts/success-interval.tsx';
import { failureLabel, outcomeVariant, pct, shortId } from '../runs/format.ts';
import { ShareButton } from '../team/share-button.tsx';
import { shareOf, useMe } from '../team/use-me.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { Label, Select } from '../ui/input.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import {
  type CompareRow,
  compareRows,
  type DeltaSpec,
  deltaOf,
  parsePair,
  sampleEpisodes,
  specLabel,
} from './model.ts';

function Delta(spec: DeltaSpec) {
  const d = deltaOf(spec);
  if (d.kind === 'missing') return <span className="text-muted-foreground">—</span>;
  if (d.kind === 'same') {
    return (
      <span className="inline-flex items-center gap-1 text-muted-foreground" data-diff="same">
        <Minus className="size-3" /> same
      </span>
    );
  }
  return (
    <span
      data-diff={d.good === undefined ? 'changed' : d.good ? 'better' : 'worse'}
      className={cn(
        'inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-medium tabular-nums',
        d.good === true && 'bg-success-soft text-success',
        d.good === false && 'bg-danger-soft text-danger',
        d.good === undefined && 'bg-muted',
      )}
    >
      {d.up ? <ArrowUp className="size-3" /> : <ArrowDown className="size-3" />}
      {d.text}
      {spec.clear ? <span className="ml-1 text-[10px] uppercase">clear</span> : null}
    </span>
  );
}

function RunPicker({
  value,
  onPick,
  exclude,
}: {
  value: string;
  onPick: (id: string) => void;
  exclude?: string;
}) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.runs.list.queryOptions({ limit: 50 }));
  return (
    <Select
      value={value}
      onChange={(e) => onPick(e.target.value)}
      data-testid="compare-pick"
      className="max-w-[420px]"
    >
      <option value="">Choose a run…</option>
      {runs.data?.items
        .filter((r) => r.id !== exclude)
        .map((r) => (
          <option key={r.id} value={r.id}>
            {shortId(r.id)} · {r.kind} · {r.policy} · {r.bridge}:{r.task} ·{' '}
            {pct(r.metrics.successRate)}
          </option>
        ))}
    </Select>
  );
}

export function CompareView({
  pair,
  title = 'Compare runs',
  labels = ['A', 'B'],
  children,
}: {
  pair: string;
  title?: string;
  labels?: [string, string];
  children?: ReactNode;
}) {
  const [aId, bId] = parsePair(pair);
  const trpc = useTRPC();
  const router = useRouter();
  const a = useQuery({ ...trpc.runs.byId.queryOptions({ id: aId }), enabled: Boolean(aId) });
  const b = useQuery({ ...trpc.runs.byId.queryOptions({ id: bId }), enabled: Boolean(bId) });
  const setPair = (x: string, y: string) => router.replace(`/compare?runs=${x}..${y}`);
  // A share visitor sees the shared pair only (the run pickers list the project's runs).
  const share = shareOf(useMe().data);

  return (
    <div>
      <PageHeader
        title={title}
        description="The same metrics side by side. Changes are marked better or worse; “clear” when the 95% intervals of the two success rates do not overlap."
        actions={aId && bId ? <ShareButton kind="comparison" ids={[aId, bId]} /> : null}
      />
      <div className={share ? 'hidden' : 'mb-4 flex flex-wrap items-end gap-4'}>
        <div className="flex flex-col gap-1">
          <Label>{labels[0]}</Label>
          <RunPicker value={aId} onPick={(id) => setPair(id, bId)} exclude={bId} />
        </div>
        <div className="flex flex-col gap-1">
          <Label>{labels[1]}</Label>
          <RunPicker value={bId} onPick={(id) => setPair(aId, id)} exclude={aId} />
        </div>
      </div>
      <ErrorNote error={a.error ?? b.error} />
      {(aId && a.isPending) || (bId && b.isPending) ? <Skeleton className="h-64" /> : null}
      {a.data && b.data ? (
        <CompareBody a={a.data} b={b.data} labels={labels} />
      ) : !aId || !bId ? (
        <p className="text-sm text-muted-foreground">Choose two runs.</p>
      ) : null}
      {children}
    </div>
  );
}

type Summary = RouterOutputs['runs']['byId'];

export function CompareBody({
  a,
  b,
  labels,
}: {
  a: Summary;
  b: Summary;
  labels: [string, string];
}) {
  return (
    <div className="flex flex-col gap-4" data-testid="compare">
      <div className="grid gap-4 md:grid-cols-2">
        <RunCard run={a} label={labels[0]} index={0} />
        <RunCard run={b} label={labels[1]} index={1} />
      </div>
      <Card>
        <CardContent className="pt-4">
          <MetricsTable rows={compareRows(a.metrics, b.metrics)} labels={labels} />
        </CardContent>
      </Card>
      <div className="grid gap-4 md:grid-cols-2">
        <SampleTrajectories runId={a.id} label={labels[0]} />
        <SampleTrajectories runId={b.id} label={labels[1]} />
      </div>
    </div>
  );
}

export function RunCard({
  run: r,
  label,
  index: i,
}: {
  run: Summary;
  label: string;
  index: number;
}) {
  return (
    <Card data-testid={`compare-card-${i}`}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Badge variant={i === 0 ? 'outline' : 'info'}>{label}</Badge>
          <Link href={`/runs/${r.id}`} className="font-mono text-primary hover:underline">
            {r.id}
          </Link>
        </CardTitle>
        <div className="text-xs text-muted-foreground">
          {r.kind} · <span className="font-mono">{r.policy}</span> · {specLabel(r.spec.env)} ·{' '}
          {r.episodesDone}/{r.episodesTotal} episodes
        </div>
      </CardHeader>
      <CardContent>
        <SuccessInterval
          rate={r.metrics.successRate}
          iv={r.metrics.interval}
          testId={`compare-success-${i}`}
        />
        <FailureBar className="mt-4" distribution={r.metrics.failureDistribution} />
      </CardContent>
    </Card>
  );
}

function MetricsTable({ rows, labels }: { rows: CompareRow[]; labels: [string, string] }) {
  return (
    <Table>
      <THead>
        <TR>
          <TH>Metric</TH>
          <TH className="text-right">{labels[0]}</TH>
          <TH className="text-right">{labels[1]}</TH>
          <TH className="text-right">Change</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((row) => (
          <TR key={row.testId} data-testid={`cmp-${row.testId}`}>
            <TD className="text-sm">{row.label}</TD>
            <TD className="text-right tabular-nums" data-testid="cmp-a">
              {row.a}
            </TD>
            <TD className="text-right tabular-nums" data-testid="cmp-b">
              {row.b}
            </TD>
            <TD className="text-right text-xs">{row.delta ? <Delta {...row.delta} /> : null}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

/** A few episodes of each outcome, to read beside the numbers. */
export function SampleTrajectories({ runId, label }: { runId: string; label: string }) {
  const trpc = useTRPC();
  const episodes = useQuery(trpc.runs.episodes.queryOptions({ runId, limit: 1000 }));
  const sample = sampleEpisodes(episodes.data?.items ?? []);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Trajectories from {label}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col divide-y" data-testid="sample-trajectories">
          {sample.map((e) => (
            <li key={e.id} className="flex items-center gap-3 py-2 text-sm">
              <Badge variant={outcomeVariant(e.outcome)}>{e.outcome}</Badge>
              <Link
                href={`/runs/${runId}/episodes/${e.id}`}
                className="font-mono text-xs text-primary hover:underline"
              >
                {e.taskId} · seed {e.seed}
              </Link>
              <span className="ml-auto text-xs text-muted-foreground">
                {e.steps} steps{e.failureCategory ? ` · ${failureLabel(e.failureCategory)}` : ''}
              </span>
            </li>
          ))}
          {sample.length === 0 ? (
            <li className="py-2 text-sm text-muted-foreground">No finished episodes.</li>
          ) : null}
        </ul>
      </CardContent>
    </Card>
  );
}
