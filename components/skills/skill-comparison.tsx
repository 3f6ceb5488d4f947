'use client';
// The skill-source comparison (EnvHarness paper, skill learning): no skills vs skills from original
// envs vs skills from EnvHarness envs, evaluated once per held-out original task. A table with Wilson
// intervals and mean steps (always read together) and a chart; a small form runs a new comparison.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import {
  Bar,
  BarChart,
  ErrorBar,
  LabelList,
  type LabelProps,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { Field, NumberField } from '../ui/field.tsx';
import { Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { countOf } from '../ui/plural.ts';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import {
  chartData,
  labelBesideWhisker,
  pct,
  rowsOf,
  type SourceRow,
  sourceLabel,
  WHISKER_HALF,
} from './model.ts';

type Comparison = RouterOutputs['skills']['comparisons'][number];

/** A success bar's value, beside its interval's whisker rather than under it. */
function SuccessLabel(props: LabelProps) {
  const box = props.viewBox;
  if (!box || !('width' in box)) return null;
  const at = labelBesideWhisker({
    x: Number(box.x ?? 0),
    y: Number(box.y ?? 0),
    width: Number(box.width ?? 0),
  });
  return (
    <text
      x={at.x}
      y={at.y}
      textAnchor="end"
      fontSize={12}
      fill="var(--foreground)"
      data-testid="success-label"
    >
      {props.value}
    </text>
  );
}

function ComparisonChart({ rows }: { rows: SourceRow[] }) {
  const data = chartData(rows);
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="comparison-chart">
      {(['success', 'steps'] as const).map((key) => (
        <div key={key} className="h-[220px]">
          <div className="mb-1 text-xs text-muted-foreground">
            {key === 'success' ? 'Success rate (%) with 95% interval' : 'Mean steps'}
          </div>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ left: 0, right: 8, top: 16, bottom: 4 }}>
              <XAxis dataKey="label" tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }} />
              <YAxis
                tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
                domain={key === 'success' ? [0, 100] : [0, 'auto']}
              />
              <Tooltip
                contentStyle={{
                  background: 'var(--card)',
                  border: '1px solid var(--border)',
                  fontSize: 12,
                }}
              />
              <Bar
                dataKey={key}
                fill={key === 'success' ? 'var(--primary)' : 'var(--muted-foreground)'}
                isAnimationActive={false}
              >
                {key === 'success' ? (
                  <ErrorBar dataKey="err" width={WHISKER_HALF * 2} stroke="var(--foreground)" />
                ) : null}
                {key === 'success' ? (
                  <LabelList dataKey={key} content={SuccessLabel} />
                ) : (
                  <LabelList
                    dataKey={key}
                    position="top"
                    style={{ fontSize: 12, fill: 'var(--foreground)' }}
                  />
                )}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      ))}
    </div>
  );
}

/** The comparison form's settings; running one stores it and shows it. */
function useRunComparison(onDone: (id: string) => void) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const [form, setForm] = useState({
    policy: 'scripted:household-no-open',
    envs: 8,
    evalEnvs: 24,
    seed: 0,
  });
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge: 'household' }));
  const run = useMutation(
    trpc.skills.compare.mutationOptions({
      onSuccess: async (r) => {
        await client.invalidateQueries({ queryKey: trpc.skills.comparisons.queryKey() });
        if (r.id) onDone(r.id);
      },
    }),
  );
  return {
    form,
    set: (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch })),
    policies: policies.data ?? [{ id: form.policy }],
    run,
    submit: () => run.mutate({ bridge: 'household', ...form }),
  };
}

function RunComparisonForm({ onDone }: { onDone: (id: string) => void }) {
  const c = useRunComparison(onDone);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Run a comparison</CardTitle>
        <CardDescription>
          Household, train → eval_unseen. Same policy, seeds, env count and heuristic extraction for
          every source; small N runs in seconds.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            c.submit();
          }}
        >
          <Field label="Policy" htmlFor="cmp-policy">
            <Select
              id="cmp-policy"
              data-testid="cmp-policy"
              value={c.form.policy}
              onChange={(e) => c.set({ policy: e.target.value })}
            >
              {c.policies.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id}
                </option>
              ))}
            </Select>
          </Field>
          <NumberField
            id="cmp-envs"
            testId="cmp-envs"
            label="Training envs"
            className="w-28"
            min={1}
            max={50}
            value={c.form.envs}
            onChange={(envs) => c.set({ envs })}
          />
          <NumberField
            id="cmp-eval"
            testId="cmp-eval-envs"
            label="Held-out tasks"
            className="w-28"
            min={1}
            max={200}
            value={c.form.evalEnvs}
            onChange={(evalEnvs) => c.set({ evalEnvs })}
          />
          <NumberField
            id="cmp-seed"
            label="Seed"
            className="w-20"
            min={0}
            value={c.form.seed}
            onChange={(seed) => c.set({ seed })}
          />
          <Button type="submit" data-testid="cmp-run" disabled={c.run.isPending}>
            {c.run.isPending ? 'Running…' : 'Run comparison'}
          </Button>
        </form>
        <ErrorNote error={c.run.error} />
      </CardContent>
    </Card>
  );
}

export function SkillComparisonPage() {
  const trpc = useTRPC();
  const url = useUrlState();
  const list = useQuery(trpc.skills.comparisons.queryOptions());
  const selectedId = url.get('id') ?? list.data?.[0]?.id;
  const selected = list.data?.find((c) => c.id === selectedId);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        eyebrow={<Link href="/skills">Skill banks</Link>}
        title="Skill-source comparison"
        description="Skills extracted from (a) nothing, (b) trajectories on original envs, (c) trajectories on EnvHarness envs — then the skilled policy plays each held-out original task once. Read mean steps together with success: short can mean efficient or giving up."
      />
      <RunComparisonForm onDone={(id) => url.set({ id })} />
      <ErrorNote error={list.error} />
      {list.isPending ? <Skeleton className="h-40" /> : null}
      {list.data && list.data.length === 0 ? (
        <EmptyState title="No comparison yet">
          Run one above or with harness skills compare.
        </EmptyState>
      ) : null}
      {selected ? <ComparisonCard comparison={selected} /> : null}
      {list.data && list.data.length > 1 ? (
        <EarlierComparisons list={list.data} onPick={(id) => url.set({ id })} />
      ) : null}
    </div>
  );
}

function ComparisonCard({ comparison: c }: { comparison: Comparison }) {
  const rows = rowsOf(c.results);
  return (
    <Card data-testid="comparison" data-id={c.id}>
      <CardHeader>
        <CardTitle>
          {c.policy} · {c.bridge} {c.trainSplit} ×{c.envs} → {c.evalSplit}
        </CardTitle>
        <CardDescription>{new Date(c.createdAt).toLocaleString()}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Table data-testid="comparison-table">
          <THead>
            <TR>
              <TH>Skill source</TH>
              <TH>Skills</TH>
              <TH>Training success</TH>
              <TH>Held-out success (95% CI)</TH>
              <TH>Mean steps</TH>
              <TH>Tasks</TH>
            </TR>
          </THead>
          <TBody>
            {rows.map((r) => (
              <ComparisonRow key={r.source} row={r} />
            ))}
          </TBody>
        </Table>
        <ComparisonChart rows={rows} />
      </CardContent>
    </Card>
  );
}

function ComparisonRow({ row: r }: { row: SourceRow }) {
  return (
    <TR data-testid="comparison-row" data-source={r.source}>
      <TD>
        {sourceLabel(r.source)}{' '}
        {r.bankId ? (
          <Link className="text-xs text-primary hover:underline" href={`/skills/${r.bankId}`}>
            bank
          </Link>
        ) : null}
      </TD>
      <TD className="tabular-nums">{r.skills}</TD>
      <TD className="tabular-nums">{pct(r.trainSuccessRate)}</TD>
      <TD className="tabular-nums" data-testid="row-success">
        {pct(r.successRate)}{' '}
        <span className="text-xs text-muted-foreground">
          [{pct(r.interval[0])}, {pct(r.interval[1])}]
        </span>
      </TD>
      <TD className="tabular-nums" data-testid="row-steps">
        {r.meanSteps.toFixed(1)}
      </TD>
      <TD className="tabular-nums">
        {r.n}
        {r.errors > 0 ? <Badge variant="danger">{countOf(r.errors, 'error')}</Badge> : null}
      </TD>
    </TR>
  );
}

function EarlierComparisons({
  list,
  onPick,
}: {
  list: Comparison[];
  onPick: (id: string) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Earlier comparisons</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-1 text-sm">
          {list.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="text-primary hover:underline"
                onClick={() => onPick(c.id)}
              >
                {c.policy} ×{c.envs}
              </button>{' '}
              <span className="text-xs text-muted-foreground">
                {new Date(c.createdAt).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
