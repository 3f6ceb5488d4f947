'use client';
// A rig, live: the four stages as a timeline, the baseline run, the diagnosis with badges on the steps
// it cites (each opens the step in the trajectory viewer), every candidate with its set-up / code diff
// from the previous one, its validation run, the decision and rationale, the band as a gauge, and a
// person's approve / reject beside the automatic decision (approving files the candidate in the
// task's harness library). The rig row is polled while the loop runs; the rollouts themselves (the
// baseline, then the candidate being validated) stream over the runs SSE subscription.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useMemo, useState } from 'react';
import type { HarnessNode, HarnessSpec } from '../../server/harness/spec.ts';
import { specDiff } from '../harness-graph/diff.ts';
import { pct } from '../runs/format.ts';
import { taskHref } from '../tasks/links.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Input } from '../ui/input.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { LiveRunProgress } from './live-run.tsx';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

type Stage = 'observe' | 'diagnose' | 'write' | 'validate';
const STAGES: { id: Stage; label: string }[] = [
  { id: 'observe', label: 'Observe' },
  { id: 'diagnose', label: 'Diagnose' },
  { id: 'write', label: 'Write' },
  { id: 'validate', label: 'Validate' },
];

function stripTask(task: string): string {
  return task.replace(/@scene\d+$/, '');
}

/** The success band as a gauge: the band shaded, a marker at the rate. */
export function BandGauge({
  band,
  rate,
  testId,
}: {
  band: [number, number];
  rate: number | null;
  testId?: string;
}) {
  const inBand = rate !== null && rate >= band[0] - 1e-9 && rate <= band[1] + 1e-9;
  return (
    <div className="w-48" data-testid={testId} data-in-band={inBand ? 'true' : 'false'}>
      <div className="relative h-3 rounded-full bg-muted">
        <div
          className="absolute inset-y-0 rounded-full bg-success-soft"
          style={{ left: `${band[0] * 100}%`, width: `${(band[1] - band[0]) * 100}%` }}
        />
        {rate !== null ? (
          <div
            className={`absolute -top-1 h-5 w-1 rounded ${inBand ? 'bg-success' : 'bg-danger'}`}
            style={{ left: `calc(${rate * 100}% - 2px)` }}
          />
        ) : null}
      </div>
      <div className="mt-1 flex justify-between text-[10px] text-muted-foreground">
        <span>0%</span>
        <span>
          band {pct(band[0], 0)}–{pct(band[1], 0)}
        </span>
        <span>100%</span>
      </div>
    </div>
  );
}

function layers(node: HarnessNode): string[] {
  if (node.type === 'base') return [`${node.bridge}:${stripTask(node.task)}`];
  if (node.type === 'chain') return [`chain (${node.mode})`, ...layers(node.first)];
  return [node.type, ...layers(node.env)];
}

function setupOf(node: HarnessNode): string[] {
  if (node.type === 'stage')
    return [
      ...node.actions.map((a) => String(Object.values(a.args)[0] ?? a.name)),
      ...setupOf(node.env),
    ];
  if (node.type === 'contract') return setupOf(node.env);
  if (node.type === 'chain') return setupOf(node.first);
  return [];
}

function SpecDiffView({ before, after }: { before: HarnessSpec | undefined; after: HarnessSpec }) {
  const changes = useMemo(
    () =>
      (before ? specDiff(before, after) : []).map((c, i) => ({
        ...c,
        id: `${c.path}:${c.kind}:${c.field ?? ''}:${i}`,
        changed: (c.lines ?? [])
          .filter((l) => l.op !== 'same')
          .map((l, j) => ({ ...l, id: `${l.op}:${j}` })),
      })),
    [before, after],
  );
  if (!before) return <p className="text-xs text-muted-foreground">First candidate.</p>;
  if (changes.length === 0)
    return <p className="text-xs text-muted-foreground">Same as the previous candidate.</p>;
  return (
    <div className="space-y-2" data-testid="candidate-diff">
      {changes.map((c) => (
        <div key={c.id} className="text-xs">
          <span className="font-mono text-muted-foreground">{c.path}</span> {c.kind}
          {c.field ? ` ${c.field}` : ''}
          {c.lines ? (
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 font-mono">
              {c.changed.map((l) => (
                <div key={l.id} className={l.op === 'add' ? 'text-success' : 'text-danger'}>
                  {l.op === 'add' ? '+ ' : '- '}
                  {l.text}
                </div>
              ))}
            </pre>
          ) : c.before !== undefined || c.after !== undefined ? (
            <div className="mt-1 font-mono">
              {c.before !== undefined ? (
                <div className="text-danger">- {c.before.slice(0, 300)}</div>
              ) : null}
              {c.after !== undefined ? (
                <div className="text-success">+ {c.after.slice(0, 300)}</div>
              ) : null}
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}

export function RigPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const rig = useQuery({
    ...trpc.rigs.byId.queryOptions({ id }),
    // The rig rows are written as each stage ends (no rig event stream): poll them while the loop
    // runs; rollout progress comes from the run's SSE stream (LiveRunProgress).
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 1500),
  });
  const refreshRig = useCallback(
    () => qc.invalidateQueries({ queryKey: trpc.rigs.byId.queryKey({ id }) }),
    [qc, trpc, id],
  );
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const review = useMutation(
    trpc.rigs.review.mutationOptions({
      onSuccess: () => {
        setRejecting(null);
        setReason('');
        return refreshRig();
      },
    }),
  );

  if (rig.error) return <ErrorNote error={rig.error} />;
  if (!rig.data) return <Skeleton className="h-96" />;
  const r = rig.data;
  const band = r.constraints.band;
  const diagnosis = r.diagnoses.at(-1);
  const candidates = r.candidates;
  const last = candidates.at(-1);
  const current: Stage = FINAL.has(r.status)
    ? 'validate'
    : !diagnosis
      ? 'observe'
      : last && !last.decision
        ? last.validationRunId
          ? 'validate'
          : 'write'
        : 'write';
  const reached = (s: Stage) =>
    STAGES.findIndex((x) => x.id === s) <= STAGES.findIndex((x) => x.id === current);
  const baselineRate = (diagnosis?.report?.baselineRate as number | undefined) ?? null;

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link href="/rigs" className="hover:underline">
            ← Rigs
          </Link>
        }
        title={
          <span className="flex items-center gap-3">
            Rig <span className="font-mono text-xl">{r.id}</span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge
              variant={
                r.status === 'completed' ? 'success' : r.status === 'failed' ? 'danger' : 'info'
              }
              data-testid="rig-status"
            >
              {r.status}
            </Badge>
            <span className="font-mono">{r.policy}</span> on{' '}
            <Link
              href={taskHref(r.bridge, stripTask(r.taskId))}
              className="font-mono text-primary hover:underline"
            >
              {r.bridge}:{r.taskId}
            </Link>
            <span>
              · {r.designer} designer · K={r.k} · up to {r.maxIterations} iterations
              {r.constraints.defect ? ` · defect: “${r.constraints.defect}”` : ''}
            </span>
          </span>
        }
      />
      {r.error ? <ErrorNote error={{ message: r.error }} /> : null}

      <ol className="flex flex-wrap gap-2" data-testid="rig-timeline">
        {STAGES.map((s) => (
          <li
            key={s.id}
            data-testid={`stage-${s.id}`}
            data-state={
              s.id === current && !FINAL.has(r.status)
                ? 'active'
                : reached(s.id)
                  ? 'done'
                  : 'pending'
            }
            className={`rounded-full border px-3 py-1 text-sm ${s.id === current && !FINAL.has(r.status) ? 'border-primary text-primary' : reached(s.id) ? 'bg-secondary' : 'text-muted-foreground'}`}
          >
            {s.label}
          </li>
        ))}
      </ol>

      <Card>
        <CardHeader>
          <CardTitle>Observe</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-4 text-sm">
          {r.baselineRunId ? (
            <Link
              href={`/runs/${r.baselineRunId}`}
              className="text-primary hover:underline"
              data-testid="baseline-run"
            >
              Baseline run ({r.k} rollouts)
            </Link>
          ) : (
            <span className="text-muted-foreground">Baseline rollouts starting…</span>
          )}
          {r.baselineRunId && !diagnosis ? (
            <LiveRunProgress
              key={r.baselineRunId}
              runId={r.baselineRunId}
              label="Baseline rollouts"
              onFinished={refreshRig}
            />
          ) : null}
          {baselineRate !== null ? (
            <BandGauge band={band} rate={baselineRate} testId="baseline-gauge" />
          ) : null}
        </CardContent>
      </Card>

      <Card data-testid="diagnosis">
        <CardHeader>
          <CardTitle>Diagnose</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3 text-sm">
          {diagnosis ? (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant="accent" data-testid="diagnosis-axis">
                  {diagnosis.axis.replace('_', ' ')}
                </Badge>
                <span className="font-mono" data-testid="diagnosis-label">
                  {diagnosis.label}
                </span>
                {diagnosis.report?.direction ? (
                  <Badge variant="outline">{String(diagnosis.report.direction)}</Badge>
                ) : null}
              </div>
              <p>{diagnosis.description}</p>
              <div className="flex flex-wrap gap-2" data-testid="evidence">
                {diagnosis.evidence.map((e) => (
                  <Link
                    key={`${e.episodeId}-${e.step}`}
                    href={`/runs/${r.baselineRunId ?? ''}/episodes/${e.episodeId}?step=${e.step}`}
                    data-testid="evidence-badge"
                    title={e.note}
                  >
                    <Badge variant="warning">
                      episode …{e.episodeId.slice(-5)} · step {e.step}
                    </Badge>
                  </Link>
                ))}
              </div>
            </>
          ) : (
            <span className="text-muted-foreground">Waiting for the baseline…</span>
          )}
        </CardContent>
      </Card>

      <div className="space-y-4" data-testid="candidates">
        {candidates.map((c, i) => {
          const rate = typeof c.stats?.successRate === 'number' ? c.stats.successRate : null;
          const accepted = r.acceptedCandidateId === c.id;
          return (
            <Card key={c.id} data-testid="candidate" data-decision={c.decision ?? 'pending'}>
              <CardHeader>
                <CardTitle className="flex flex-wrap items-center gap-2">
                  Write & validate #{c.iteration + 1}
                  {c.round > 0 ? <Badge variant="outline">round {c.round + 1}</Badge> : null}
                  {c.stats?.template ? (
                    <Badge variant="outline">{String(c.stats.template)}</Badge>
                  ) : null}
                  {c.decision ? (
                    <Badge
                      data-testid="candidate-decision"
                      variant={
                        c.decision === 'accept'
                          ? 'success'
                          : c.decision === 'reject'
                            ? 'danger'
                            : 'warning'
                      }
                    >
                      {c.decision}
                    </Badge>
                  ) : null}
                  {accepted ? <Badge variant="success">accepted</Badge> : null}
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-3 text-sm">
                <p>{c.rationale}</p>
                <div className="text-xs text-muted-foreground">
                  Stack: {layers(c.spec.env).join(' → ')}
                </div>
                {setupOf(c.spec.env).length ? (
                  <div className="text-xs">
                    Set-up: <span className="font-mono">{setupOf(c.spec.env).join(' · ')}</span>
                  </div>
                ) : null}
                <SpecDiffView before={candidates[i - 1]?.spec} after={c.spec} />
                {c.writeError ? <ErrorNote error={{ message: c.writeError }} /> : null}
                <div className="flex flex-wrap items-center gap-4">
                  {c.validationRunId ? (
                    <Link
                      href={`/runs/${c.validationRunId}`}
                      className="text-primary hover:underline"
                      data-testid="validation-run"
                    >
                      Validation run
                    </Link>
                  ) : null}
                  {c.validationRunId && !c.decision && !FINAL.has(r.status) ? (
                    <LiveRunProgress
                      key={c.validationRunId}
                      runId={c.validationRunId}
                      label="Validating"
                      onFinished={refreshRig}
                    />
                  ) : null}
                  {c.stats && rate !== null ? (
                    <BandGauge band={band} rate={rate} testId="candidate-gauge" />
                  ) : null}
                  {rate !== null ? (
                    <span className="tabular-nums">{pct(rate, 0)} success</span>
                  ) : null}
                </div>
                {c.feedback ? <p className="text-xs text-muted-foreground">{c.feedback}</p> : null}
                <div className="flex flex-wrap items-center gap-2">
                  <Button size="sm" variant="outline" asChild>
                    <Link
                      data-testid="open-in-editor"
                      href={
                        c.library
                          ? `/harnesses/${c.library.harnessId}?version=${c.library.version}`
                          : `/rigs/${r.id}/candidates/${c.id}`
                      }
                    >
                      Open in editor
                    </Link>
                  </Button>
                  {c.library ? (
                    <Link
                      href={`/harnesses/${c.library.harnessId}?version=${c.library.version}`}
                      className="text-xs text-primary hover:underline"
                      data-testid="library-link"
                    >
                      in the harness library (v{c.library.version})
                    </Link>
                  ) : null}
                  {c.approval ? (
                    <Badge
                      variant={c.approval.decision === 'approve' ? 'success' : 'danger'}
                      data-testid="approval"
                    >
                      {c.approval.decision === 'approve' ? 'approved' : 'rejected'} by{' '}
                      {c.approval.by}
                      {c.approval.reason ? `: ${c.approval.reason}` : ''}
                    </Badge>
                  ) : null}
                  {!c.writeError && c.decision ? (
                    <>
                      <Button
                        size="sm"
                        variant="success"
                        data-testid="approve"
                        disabled={review.isPending}
                        onClick={() => review.mutate({ candidateId: c.id, decision: 'approve' })}
                      >
                        Approve
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        data-testid="reject"
                        disabled={review.isPending}
                        onClick={() => {
                          setRejecting(c.id);
                          setReason('');
                        }}
                      >
                        Reject
                      </Button>
                    </>
                  ) : null}
                  {rejecting === c.id ? (
                    <form
                      className="flex items-center gap-2"
                      onSubmit={(e) => {
                        e.preventDefault();
                        if (reason.trim())
                          review.mutate({ candidateId: c.id, decision: 'reject', reason });
                      }}
                    >
                      <Input
                        autoFocus
                        data-testid="reject-reason"
                        className="h-8 w-72"
                        placeholder="Why reject it? (required)"
                        value={reason}
                        onChange={(e) => setReason(e.target.value)}
                      />
                      <Button
                        type="submit"
                        size="sm"
                        variant="danger"
                        data-testid="reject-confirm"
                        disabled={!reason.trim() || review.isPending}
                      >
                        Reject
                      </Button>
                    </form>
                  ) : null}
                </div>
              </CardContent>
            </Card>
          );
        })}
      </div>
      <ErrorNote error={review.error} />
    </div>
  );
}
