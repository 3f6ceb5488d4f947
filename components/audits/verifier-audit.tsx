'use client';
// The verifier audit page: can each bridge's verifier tell a right answer from a wrong one? One
// table per bridge (its newest audit): per task whether the gold sequence passes, a no-op and the
// perturbed gold fail, and which episodes' reward and verdict disagree — every cell linking to the
// probe episode it judged. "Run audit" audits a bridge (a split, a sample) now.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { type AuditReport, disagreementText, type ProbeResult } from '../../contracts/audit.ts';
import { useBlockedReason } from '../hooks/use-access.ts';
import { ago } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { Field } from '../ui/field.tsx';
import { Input, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import {
  checkLabel,
  checkTone,
  episodeHref,
  failingFirst,
  PROBE_COLUMNS,
  probeOutcome,
  visibleTasks,
} from './model.ts';

export function VerifierAudit() {
  const trpc = useTRPC();
  const latest = useQuery(trpc.audits.latest.queryOptions());
  const bridges = useQuery(trpc.bridges.list.queryOptions());
  const audited = new Set(latest.data?.map((a) => a.bridge) ?? []);
  const notYet = bridges.data?.filter((b) => !audited.has(b.name)) ?? [];
  return (
    <div>
      <PageHeader
        title="Verifier audit"
        description="Can each benchmark's verifier tell a right answer from a wrong one? Per task: the gold sequence (the oracle's plan, or the best recorded success) must pass; a no-op agent and the gold without its last effective action must not; and an episode's summed reward must agree with its verdict."
      />
      <RunAuditForm bridges={bridges.data ?? []} />
      <ErrorNote error={latest.error ?? bridges.error} />
      {latest.isPending ? <Skeleton className="mt-4 h-60" /> : null}
      {latest.data?.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No bridge audited yet">
            Run an audit above, or from the command line: <code>npx harness audit household</code>
          </EmptyState>
        </div>
      ) : null}
      <div className="mt-4 flex flex-col gap-4">
        {failingFirst(latest.data ?? []).map((a) => (
          <BridgeAudit key={a.id ?? a.bridge} audit={a} />
        ))}
      </div>
      {latest.data && latest.data.length > 0 && notYet.length > 0 ? (
        <p className="mt-4 text-sm text-muted-foreground" data-testid="not-audited">
          Not audited yet: {notYet.map((b) => b.name).join(', ')}.
        </p>
      ) : null}
    </div>
  );
}

function RunAuditForm({ bridges }: { bridges: { name: string; splits: string[] }[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const blocked = useBlockedReason('researcher', 'run an audit');
  const [bridge, setBridge] = useState('');
  const [split, setSplit] = useState('');
  const [sample, setSample] = useState('');
  const chosen = bridge || bridges[0]?.name || '';
  const splits = bridges.find((b) => b.name === chosen)?.splits ?? [];
  const run = useMutation(
    trpc.audits.run.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.audits.pathKey() });
      },
    }),
  );
  const sampleNumber = sample.trim() === '' ? undefined : Number(sample);
  const sampleProblem =
    sampleNumber !== undefined && (!Number.isInteger(sampleNumber) || sampleNumber < 1)
      ? 'The sample is a whole number of tasks, 1 or more (empty: every task).'
      : undefined;
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-xl border bg-card p-4"
      data-testid="run-audit-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen || sampleProblem) return;
        run.mutate({
          bridge: chosen,
          ...(split ? { split } : {}),
          ...(sampleNumber !== undefined ? { sample: sampleNumber } : {}),
        });
      }}
    >
      <Field label="Bridge" htmlFor="audit-bridge">
        <Select
          id="audit-bridge"
          className="min-w-36"
          data-testid="audit-bridge"
          value={chosen}
          onChange={(e) => {
            setBridge(e.target.value);
            setSplit('');
          }}
        >
          {bridges.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Split" htmlFor="audit-split">
        <Select
          id="audit-split"
          data-testid="audit-split"
          value={split}
          onChange={(e) => setSplit(e.target.value)}
        >
          <option value="">All splits</option>
          {splits.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Sample (tasks)" htmlFor="audit-sample" className="w-40">
        <Input
          id="audit-sample"
          data-testid="audit-sample"
          inputMode="numeric"
          placeholder="every task"
          value={sample}
          aria-invalid={sampleProblem ? true : undefined}
          onChange={(e) => setSample(e.target.value)}
        />
      </Field>
      <Button
        type="submit"
        data-testid="run-audit"
        disabled={run.isPending || !chosen || Boolean(sampleProblem) || Boolean(blocked)}
        title={blocked}
      >
        {run.isPending ? 'Auditing…' : 'Run audit'}
      </Button>
      <div className="basis-full empty:hidden">
        {sampleProblem ? (
          <p className="text-sm text-danger" data-testid="audit-sample-problem">
            {sampleProblem}
          </p>
        ) : null}
        {blocked ? <p className="text-sm text-muted-foreground">{blocked}</p> : null}
        <ErrorNote error={run.error} testId="audit-error" />
      </div>
    </form>
  );
}

const TONE = {
  ok: 'bg-success-soft text-success',
  bad: 'bg-danger-soft text-danger',
  na: 'bg-muted text-muted-foreground',
} as const;

function Counts({ c }: { c: { pass: number; fail: number; na: number } }) {
  return (
    <span className="tabular-nums">
      {c.pass} ok
      {c.fail ? <span className="font-medium text-danger"> · {c.fail} failed</span> : null}
      {c.na ? <span className="text-muted-foreground"> · {c.na} n/a</span> : null}
    </span>
  );
}

function BridgeAudit({ audit: a }: { audit: AuditReport }) {
  const [all, setAll] = useState(false);
  const rows = visibleTasks(a.tasks, all);
  const hidden = a.tasks.length - rows.length;
  return (
    <Card
      data-testid={`audit-bridge-${a.bridge}`}
      data-passed={a.passed ? 'true' : 'false'}
      id={a.bridge}
    >
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {a.passed ? (
            <ShieldCheck className="size-5 text-success" />
          ) : (
            <ShieldAlert className="size-5 text-danger" />
          )}
          <span className="font-mono">{a.bridge}</span>
          <Badge variant={a.passed ? 'success' : 'danger'} data-testid="audit-verdict">
            {a.passed
              ? 'verifier passes the audit'
              : `${a.suspicious.length} suspicious task${a.suspicious.length === 1 ? '' : 's'}`}
          </Badge>
          <span className="text-sm font-normal text-muted-foreground">
            {a.split ?? 'all splits'}
            {a.sample ? ` · sample of ${a.sample}` : ''} · {a.totals.tasks} task
            {a.totals.tasks === 1 ? '' : 's'} · {(a.ms / 1000).toFixed(1)} s
            {a.createdAt ? ` · ${ago(a.createdAt)}` : ''}
          </span>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <div
          className="grid gap-2 text-sm sm:grid-cols-2 xl:grid-cols-4"
          data-testid="audit-totals"
        >
          {PROBE_COLUMNS.map((c) => (
            <div key={c.probe} className="rounded-md border px-3 py-2" title={c.expect}>
              <div className="text-xs text-muted-foreground">{c.title}</div>
              <Counts c={a.totals[c.probe]} />
            </div>
          ))}
          <div className="rounded-md border px-3 py-2">
            <div className="text-xs text-muted-foreground">Reward / verdict disagreements</div>
            <span
              className={cn(
                'tabular-nums',
                a.totals.disagreements > 0 && 'font-medium text-danger',
              )}
            >
              {a.totals.disagreements} episode{a.totals.disagreements === 1 ? '' : 's'}
            </span>
          </div>
        </div>
        {a.totals.gold.na > 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="audit-no-gold">
            No gold is known for {a.totals.gold.na} of {a.totals.tasks} tasks: the bridge has no
            oracle plan for them and no successful episode of them is recorded. A baseline run
            records successes; the next audit replays the best one as gold.
          </p>
        ) : null}
        <div className="max-h-[560px] overflow-auto rounded-md border">
          <Table>
            <THead className="sticky top-0 z-10 bg-card">
              <TR>
                <TH>Task</TH>
                {PROBE_COLUMNS.map((c) => (
                  <TH key={c.probe} title={c.expect}>
                    {c.title}
                  </TH>
                ))}
                <TH>Reward = verdict</TH>
              </TR>
            </THead>
            <TBody>
              {rows.map((t) => (
                <TR
                  key={t.taskId}
                  data-testid="audit-row"
                  data-task={t.taskId}
                  data-suspicious={t.suspicious ? 'true' : 'false'}
                  className={t.suspicious ? 'bg-danger-soft/40' : undefined}
                >
                  <TD className="align-top">
                    <div className="font-mono text-xs">{t.taskId}</div>
                    <div className="text-xs text-muted-foreground">{t.type}</div>
                    {t.reasons.length ? (
                      <ul className="mt-1 text-xs text-danger">
                        {t.reasons.map((r) => (
                          <li key={r}>{r}</li>
                        ))}
                      </ul>
                    ) : null}
                  </TD>
                  {PROBE_COLUMNS.map((c) => (
                    <TD key={c.probe} className="align-top">
                      <ProbeCell probe={c.probe} p={t[c.probe]} />
                    </TD>
                  ))}
                  <TD className="align-top">
                    {t.disagreements.length === 0 ? (
                      <span className={cn('rounded px-1.5 py-0.5 text-xs', TONE.ok)}>ok</span>
                    ) : (
                      <ul className="space-y-1 text-xs" data-testid="audit-disagreements">
                        {t.disagreements.slice(0, 3).map((d, i) => {
                          const href = episodeHref(d);
                          const text = `${d.probe ? `${d.probe} probe` : 'recorded episode'}: ${disagreementText(d.kind, d.reward)}`;
                          return (
                            <li key={`${d.episodeId ?? i}`} className="text-danger">
                              {href ? (
                                <Link href={href} className="hover:underline">
                                  {text}
                                </Link>
                              ) : (
                                text
                              )}
                            </li>
                          );
                        })}
                        {t.disagreements.length > 3 ? (
                          <li className="text-muted-foreground">
                            … and {t.disagreements.length - 3} more
                          </li>
                        ) : null}
                      </ul>
                    )}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </div>
        {hidden > 0 || all ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAll(!all)}
            data-testid="audit-show-all"
          >
            {all
              ? 'Show suspicious tasks and a few others'
              : `Show all ${a.tasks.length} tasks (${hidden} more)`}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ProbeCell({ probe, p }: { probe: string; p: ProbeResult }) {
  const href = episodeHref(p);
  const chip = (
    <span className={cn('rounded px-1.5 py-0.5 text-xs font-medium', TONE[checkTone(p)])}>
      {checkLabel(p)}
    </span>
  );
  return (
    <div
      className="flex flex-col gap-0.5"
      data-testid={`audit-cell-${probe}`}
      data-status={p.status}
    >
      <div>
        {href ? (
          <Link href={href} className="hover:underline" data-testid={`audit-episode-${probe}`}>
            {chip}
          </Link>
        ) : (
          chip
        )}
      </div>
      <div className="text-xs text-muted-foreground">
        {probeOutcome(p)}
        {p.source ? ` · ${p.source === 'oracle' ? 'oracle plan' : 'recorded success'}` : ''}
      </div>
      {p.note && p.success !== null && probe !== 'empty' ? (
        <div className="text-xs text-muted-foreground">{p.note}</div>
      ) : null}
    </div>
  );
}
