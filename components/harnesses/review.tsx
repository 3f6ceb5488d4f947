'use client';
// Journey 6: a candidate (a harness version and its validation run) beside the baseline run — the
// same metrics side by side, differences marked, trajectories from each — then a person approves or
// rejects it with a reason; the decision is recorded and listed in the history.
import { Check, X } from 'lucide-react';
import { CompareBody } from '../compare/compare-view.tsx';
import { ago, pct, shortId } from '../runs/format.ts';
import { BackLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Field } from '../ui/field.tsx';
import { Select, Textarea } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { decisionHistory, decisionLabel } from './model.ts';
import { type Review as ReviewState, useReview } from './use-review.ts';

type Version = NonNullable<ReviewState['version']>;

export function Review({ id }: { id: string }) {
  const r = useReview(id);
  const { version } = r;
  if (r.harness.error) return <ErrorNote error={r.harness.error} />;
  if (!r.harness.data || !version) return <Skeleton className="h-96" />;

  return (
    <div>
      <PageHeader
        eyebrow={
          <BackLink href={`/harnesses/${id}?version=${version.version}`}>
            {r.harness.data.name}
          </BackLink>
        }
        title={`Review v${version.version} “${version.name}”`}
        description="The candidate's validation run beside the baseline: the same metrics, differences marked. Approve or reject it with a reason; the decision is recorded."
      />
      <ReviewPickers r={r} version={version} />
      {!r.candidateId ? (
        <EmptyState title="No validation run of this version yet">
          Launch one from the harness page (Validate v{version.version}).
        </EmptyState>
      ) : !r.baselineId ? (
        <EmptyState title="No baseline run on this task yet">
          Launch one from the task page.
        </EmptyState>
      ) : r.baseline && r.candidate ? (
        <CompareBody a={r.baseline} b={r.candidate} labels={['Baseline', 'Candidate']} />
      ) : (
        <Skeleton className="h-64" />
      )}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <DecisionCard r={r} version={version} />
        <HistoryCard versions={r.versions} />
      </div>
    </div>
  );
}

function ReviewPickers({ r, version }: { r: ReviewState; version: Version }) {
  return (
    <div className="mb-4 flex flex-wrap items-end gap-4">
      <Field label="Version">
        <Select
          value={version.version}
          onChange={(e) => r.pick({ version: e.target.value, candidate: null })}
          data-testid="review-version"
        >
          {r.versions.map((v) => (
            <option key={v.id} value={v.version}>
              v{v.version} · {v.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Baseline run">
        <Select
          value={r.baselineId ?? ''}
          onChange={(e) => r.pick({ baseline: e.target.value })}
          data-testid="review-baseline"
        >
          <RunOptions runs={r.baselines} />
        </Select>
      </Field>
      <Field label="Candidate validation run">
        <Select
          value={r.candidateId ?? ''}
          onChange={(e) => r.pick({ candidate: e.target.value })}
          data-testid="review-candidate"
        >
          <RunOptions runs={r.candidates} />
        </Select>
      </Field>
    </div>
  );
}

function RunOptions({ runs }: { runs: ReviewState['baselines'] }) {
  return runs.map((run) => (
    <option key={run.id} value={run.id}>
      {shortId(run.id)} · {run.policy} · {pct(run.metrics.successRate)}
    </option>
  ));
}

function DecisionCard({ r, version }: { r: ReviewState; version: Version }) {
  const decide = (decision: 'approve' | 'reject') =>
    r.decide.mutate({ harnessVersionId: version.id, decision, reason: r.reason });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Decision</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Textarea
          data-testid="decision-reason"
          className="h-24"
          placeholder="Why? (e.g. success up clearly, steps down, no harness errors)"
          value={r.reason}
          onChange={(e) => r.setReason(e.target.value)}
        />
        <ErrorNote error={r.decide.error} />
        <div className="flex gap-2">
          <Button
            variant="success"
            data-testid="approve"
            disabled={r.decide.isPending}
            onClick={() => decide('approve')}
          >
            <Check /> Approve v{version.version}
          </Button>
          <Button
            variant="danger"
            data-testid="reject"
            disabled={r.decide.isPending}
            onClick={() => decide('reject')}
          >
            <X /> Reject
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function HistoryCard({ versions }: { versions: ReviewState['versions'] }) {
  const history = decisionHistory(versions);
  return (
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
            <li key={d.id} className="flex flex-col gap-0.5 py-2 text-sm" data-testid="decision">
              <div className="flex items-center gap-2">
                <Badge variant={d.decision === 'approve' ? 'success' : 'danger'}>
                  {decisionLabel(d.decision)}
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
  );
}
