'use client';
// Journey 6: a candidate (a harness version and its validation run) beside the baseline run — the
// same metrics side by side, differences marked, trajectories from each — then a person approves or
// rejects it with a reason; the decision is recorded and listed in the history.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { CompareBody } from '../compare/compare-view.tsx';
import { useUrlState } from '../hooks/use-url-state.ts';
import { ago, pct, shortId } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Label, Select, Textarea } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';

export function Review({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = useUrlState();
  const harness = useQuery(trpc.harnesses.byId.queryOptions({ id }));
  const versions = harness.data?.versions ?? [];
  const version = versions.find((v) => String(v.version) === url.get('version')) ?? versions.at(-1);
  const taskRuns = useQuery({
    ...trpc.runs.list.queryOptions({ task: harness.data?.taskId ?? '', limit: 100 }),
    enabled: Boolean(harness.data?.taskId),
  });
  const runs = taskRuns.data?.items ?? [];
  const candidates = runs.filter((r) => r.harnessVersionId === version?.id);
  const candidateId =
    url.get('candidate') ??
    candidates.find((r) => r.status === 'completed')?.id ??
    candidates[0]?.id;
  const candidateRun = runs.find((r) => r.id === candidateId);
  const baselines = runs.filter((r) => !r.harnessed);
  const baselineId =
    url.get('baseline') ??
    (
      baselines.find((r) => r.policy === candidateRun?.policy && r.status === 'completed') ??
      baselines[0]
    )?.id;

  const a = useQuery({
    ...trpc.runs.byId.queryOptions({ id: baselineId ?? '' }),
    enabled: Boolean(baselineId),
  });
  const b = useQuery({
    ...trpc.runs.byId.queryOptions({ id: candidateId ?? '' }),
    enabled: Boolean(candidateId),
  });

  const [reason, setReason] = useState('');
  const decide = useMutation(
    trpc.harnesses.decide.mutationOptions({
      onSuccess: async () => {
        setReason('');
        await queryClient.invalidateQueries({ queryKey: trpc.harnesses.byId.queryKey({ id }) });
      },
    }),
  );

  if (harness.error) return <ErrorNote error={harness.error} />;
  if (!harness.data || !version) return <Skeleton className="h-96" />;
  const history = versions
    .flatMap((v) => v.approvals.map((ap) => ({ ...ap, version: v.version, versionName: v.name })))
    .sort((x, y) => new Date(y.at).getTime() - new Date(x.at).getTime());

  return (
    <div>
      <PageHeader
        eyebrow={
          <Link href={`/harnesses/${id}?version=${version.version}`} className="hover:underline">
            ← {harness.data.name}
          </Link>
        }
        title={`Review v${version.version} “${version.name}”`}
        description="The candidate's validation run beside the baseline: the same metrics, differences marked. Approve or reject it with a reason; the decision is recorded."
      />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <Label>Version</Label>
          <Select
            value={version.version}
            onChange={(e) => url.set({ version: e.target.value, candidate: null })}
            data-testid="review-version"
          >
            {versions.map((v) => (
              <option key={v.id} value={v.version}>
                v{v.version} · {v.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label>Baseline run</Label>
          <Select
            value={baselineId ?? ''}
            onChange={(e) => url.set({ baseline: e.target.value })}
            data-testid="review-baseline"
          >
            {baselines.map((r) => (
              <option key={r.id} value={r.id}>
                {shortId(r.id)} · {r.policy} · {pct(r.metrics.successRate)}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label>Candidate validation run</Label>
          <Select
            value={candidateId ?? ''}
            onChange={(e) => url.set({ candidate: e.target.value })}
            data-testid="review-candidate"
          >
            {candidates.map((r) => (
              <option key={r.id} value={r.id}>
                {shortId(r.id)} · {r.policy} · {pct(r.metrics.successRate)}
              </option>
            ))}
          </Select>
        </div>
      </div>

      {!candidateId ? (
        <EmptyState title="No validation run of this version yet">
          Launch one from the harness page (Validate v{version.version}).
        </EmptyState>
      ) : !baselineId ? (
        <EmptyState title="No baseline run on this task yet">
          Launch one from the task page.
        </EmptyState>
      ) : a.data && b.data ? (
        <CompareBody a={a.data} b={b.data} labels={['Baseline', 'Candidate']} />
      ) : (
        <Skeleton className="h-64" />
      )}

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Decision</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Textarea
              data-testid="decision-reason"
              className="h-24"
              placeholder="Why? (e.g. success up clearly, steps down, no harness errors)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <ErrorNote error={decide.error} />
            <div className="flex gap-2">
              <Button
                variant="success"
                data-testid="approve"
                disabled={decide.isPending}
                onClick={() =>
                  decide.mutate({ harnessVersionId: version.id, decision: 'approve', reason })
                }
              >
                <Check /> Approve v{version.version}
              </Button>
              <Button
                variant="danger"
                data-testid="reject"
                disabled={decide.isPending}
                onClick={() =>
                  decide.mutate({ harnessVersionId: version.id, decision: 'reject', reason })
                }
              >
                <X /> Reject
              </Button>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>History</CardTitle>
          </CardHeader>
          <CardContent>
            {history.length === 0 ? (
              <p className="text-sm text-muted-foreground">No decisions yet.</p>
            ) : null}
            <ul className="flex flex-col divide-y" data-testid="decision-history">
              {history.map((d) => (
                <li
                  key={d.id}
                  className="flex flex-col gap-0.5 py-2 text-sm"
                  data-testid="decision"
                >
                  <div className="flex items-center gap-2">
                    <Badge variant={d.decision === 'approve' ? 'success' : 'danger'}>
                      {d.decision === 'approve' ? 'approved' : 'rejected'}
                    </Badge>
                    <span>
                      v{d.version} “{d.versionName}”
                    </span>
                    <span className="ml-auto text-xs text-muted-foreground">
                      {d.by} · {ago(new Date(d.at).toISOString())}
                    </span>
                  </div>
                  {d.reason ? (
                    <p className="text-muted-foreground" data-testid="decision-reason-text">
                      {d.reason}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
