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
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { Input, Label, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';

export interface ComparisonRowView {
  source: string;
  bankId: string | null;
  skills: number;
  trainSuccessRate: number | null;
  n: number;
  successes: number;
  successRate: number;
  interval: [number, number];
  meanSteps: number;
  meanStepsSuccess: number | null;
  errors: number;
}

const SOURCE_LABEL: Record<string, string> = {
  none: 'No skills',
  original: 'Original envs',
  envharness: 'EnvHarness envs',
};

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

export function rowsOf(results: unknown): ComparisonRowView[] {
  if (!results || typeof results !== 'object' || Array.isArray(results)) return [];
  const rows = (results as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as ComparisonRowView[]) : [];
}

function ComparisonChart({ rows }: { rows: ComparisonRowView[] }) {
  const data = rows.map((r) => ({
    label: SOURCE_LABEL[r.source] ?? r.source,
    success: Math.round(r.successRate * 1000) / 10,
    err: [
      Math.round((r.successRate - r.interval[0]) * 1000) / 10,
      Math.round((r.interval[1] - r.successRate) * 1000) / 10,
    ],
    steps: Math.round(r.meanSteps * 10) / 10,
  }));
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
                  <ErrorBar dataKey="err" width={6} stroke="var(--foreground)" />
                ) : null}
                <LabelList
                  dataKey={key}
                  position="top"
                  style={{ fontSize: 12, fill: 'var(--foreground)' }}
                />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      ))}
    </div>
  );
}

function RunComparisonForm({ onDone }: { onDone: (id: string) => void }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const [policy, setPolicy] = useState('scripted:household-no-open');
  const [envs, setEnvs] = useState(8);
  const [evalEnvs, setEvalEnvs] = useState(24);
  const [seed, setSeed] = useState(0);
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge: 'household' }));
  const run = useMutation(
    trpc.skills.compare.mutationOptions({
      onSuccess: async (r) => {
        await client.invalidateQueries({ queryKey: trpc.skills.comparisons.queryKey() });
        if (r.id) onDone(r.id);
      },
    }),
  );
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
            run.mutate({ bridge: 'household', policy, envs, evalEnvs, seed });
          }}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor="cmp-policy">Policy</Label>
            <Select
              id="cmp-policy"
              data-testid="cmp-policy"
              value={policy}
              onChange={(e) => setPolicy(e.target.value)}
            >
              {(policies.data ?? [{ id: policy }]).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex w-28 flex-col gap-1">
            <Label htmlFor="cmp-envs">Training envs</Label>
            <Input
              id="cmp-envs"
              data-testid="cmp-envs"
              type="number"
              min={1}
              max={50}
              value={envs}
              onChange={(e) => setEnvs(Number(e.target.value))}
            />
          </div>
          <div className="flex w-28 flex-col gap-1">
            <Label htmlFor="cmp-eval">Held-out tasks</Label>
            <Input
              id="cmp-eval"
              data-testid="cmp-eval-envs"
              type="number"
              min={1}
              max={200}
              value={evalEnvs}
              onChange={(e) => setEvalEnvs(Number(e.target.value))}
            />
          </div>
          <div className="flex w-20 flex-col gap-1">
            <Label htmlFor="cmp-seed">Seed</Label>
            <Input
              id="cmp-seed"
              type="number"
              min={0}
              value={seed}
              onChange={(e) => setSeed(Number(e.target.value))}
            />
          </div>
          <Button type="submit" data-testid="cmp-run" disabled={run.isPending}>
            {run.isPending ? 'Running…' : 'Run comparison'}
          </Button>
        </form>
        <ErrorNote error={run.error} />
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
  const rows = rowsOf(selected?.results);
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
      {selected ? (
        <Card data-testid="comparison" data-id={selected.id}>
          <CardHeader>
            <CardTitle>
              {selected.policy} · {selected.bridge} {selected.trainSplit} ×{selected.envs} →{' '}
              {selected.evalSplit}
            </CardTitle>
            <CardDescription>{new Date(selected.createdAt).toLocaleString()}</CardDescription>
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
                  <TR key={r.source} data-testid="comparison-row" data-source={r.source}>
                    <TD>
                      {SOURCE_LABEL[r.source] ?? r.source}{' '}
                      {r.bankId ? (
                        <Link
                          className="text-xs text-primary hover:underline"
                          href={`/skills/${r.bankId}`}
                        >
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
                      {r.errors > 0 ? <Badge variant="danger">{r.errors} errors</Badge> : null}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
            <ComparisonChart rows={rows} />
          </CardContent>
        </Card>
      ) : null}
      {list.data && list.data.length > 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Earlier comparisons</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-1 text-sm">
              {list.data.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className="text-primary hover:underline"
                    onClick={() => url.set({ id: c.id })}
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
      ) : null}
    </div>
  );
}
