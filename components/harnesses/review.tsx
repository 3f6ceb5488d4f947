'use client';
// Journey 6: a candidate (a harness version and its validation run) beside the baseline run — the
// same metrics side by side, differences marked, trajectories from each; the candidate's run alone
// when the task has no baseline yet — then a person approves or rejects it. The approval gate says
// why approving needs a reason; a decided version shows its decision instead of the buttons.
import { CompareBody, RunCard, SampleTrajectories } from '../compare/compare-view.tsx';
import { ago, pct, shortId } from '../runs/format.ts';
import { BackLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Field } from '../ui/field.tsx';
import { Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { DecisionPanel, useDecisionRights } from './decision.tsx';
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
        description="The candidate's validation run beside the baseline: the same metrics, differences marked. Approve or reject it; a decision is final and recorded with who, when and why."
      />
      <ReviewPickers r={r} version={version} />
      <ReviewBody r={r} version={version} />
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <DecisionCard r={r} version={version} />
        <HistoryCard versions={r.versions} />
      </div>
    </div>
  );
}

/** The comparison; the candidate's run alone when there is no baseline (never hidden). */
function ReviewBody({ r, version }: { r: ReviewState; version: Version }) {
  if (!r.candidateId) {
    return (
      <EmptyState title="No validation run of this version yet">
        Launch one from the harness page (Validate v{version.version}).
      </EmptyState>
    );
  }
  if (!r.candidate || (r.baselineId && !r.baseline)) return <Skeleton className="h-64" />;
  if (r.baseline) {
    return <CompareBody a={r.baseline} b={r.candidate} labels={['Baseline', 'Candidate']} />;
  }
  return (
    <div className="flex flex-col gap-4" data-testid="candidate-only">
      <p className="text-sm text-muted-foreground" data-testid="no-baseline">
        No baseline run on this task yet, so there is nothing to compare with: launch one from the
        task page. The candidate&apos;s run on its own:
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <RunCard run={r.candidate} label="Candidate" index={1} />
        <SampleTrajectories runId={r.candidate.id} label="Candidate" />
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
          {r.candidate && !r.candidates.some((c) => c.id === r.candidate?.id) ? (
            <option value={r.candidate.id}>
              {shortId(r.candidate.id)} · {r.candidate.policy} ·{' '}
              {pct(r.candidate.metrics.successRate)}
            </option>
          ) : null}
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
  const rights = useDecisionRights();
  const gate = r.gate.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Decision on v{version.version}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <ErrorNote error={r.gate.error} />
        {gate ? (
          <DecisionPanel
            key={gate.current?.id ?? 'pending'}
            gate={gate}
            rights={rights}
            actions={r.actions}
            approveLabel={`Approve v${version.version}`}
          />
        ) : (
          <Skeleton className="h-24" />
        )}
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
                {d.reversesId ? <Badge variant="outline">reversal</Badge> : null}
                <span className="ml-auto text-xs text-muted-foreground">
                  {d.by} · {ago(d.at)}
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
