'use client';
import Link from 'next/link';
// One candidate of a rig: its stack, set-up and diff from the previous candidate, its validation run
// against the band, the automatic decision, and a person's approve / reject beside it (approving
// files the candidate in the task's harness library).
import { isFinalStatus } from '../../contracts/runs.ts';
import { pct } from '../runs/format.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { Input } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { BandGauge } from './band-gauge.tsx';
import { LiveRunProgress } from './live-run.tsx';
import {
  candidateEditorHref,
  candidateRate,
  decisionTone,
  layers,
  setupOf,
  taskShownFor,
} from './model.ts';
import { SpecDiffView } from './spec-diff-view.tsx';
import type { CandidateReview, Rig, RigCandidate } from './use-rig.ts';

export function CandidateCard({
  rig,
  candidate: c,
  previous,
  review,
  onFinished,
}: {
  rig: Rig;
  candidate: RigCandidate;
  previous: RigCandidate | undefined;
  review: CandidateReview;
  onFinished: () => void;
}) {
  const rate = candidateRate(c.stats);
  const setup = setupOf(c.spec.env);
  return (
    <Card data-testid="candidate" data-decision={c.decision ?? 'pending'}>
      <CardHeader>
        <CandidateTitle candidate={c} accepted={rig.acceptedCandidateId === c.id} />
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <p>{c.rationale}</p>
        <div className="text-xs text-muted-foreground">
          Stack: {layers(c.spec.env, taskShownFor(rig)).join(' → ')}
        </div>
        {setup.length ? (
          <div className="text-xs">
            Set-up: <span className="font-mono">{setup.join(' · ')}</span>
          </div>
        ) : null}
        <SpecDiffView before={previous?.spec} after={c.spec} />
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
          {c.validationRunId && !c.decision && !isFinalStatus(rig.status) ? (
            <LiveRunProgress
              key={c.validationRunId}
              runId={c.validationRunId}
              label="Validating"
              onFinished={onFinished}
            />
          ) : null}
          {c.stats && rate !== null ? (
            <BandGauge band={rig.constraints.band} rate={rate} testId="candidate-gauge" />
          ) : null}
          {rate !== null ? <span className="tabular-nums">{pct(rate, 0)} success</span> : null}
        </div>
        {c.feedback ? <p className="text-xs text-muted-foreground">{c.feedback}</p> : null}
        <CandidateActions rigId={rig.id} candidate={c} review={review} />
      </CardContent>
    </Card>
  );
}

function CandidateTitle({
  candidate: c,
  accepted,
}: {
  candidate: RigCandidate;
  accepted: boolean;
}) {
  return (
    <CardTitle className="flex flex-wrap items-center gap-2">
      Write & validate #{c.iteration + 1}
      {c.round > 0 ? <Badge variant="outline">round {c.round + 1}</Badge> : null}
      {c.stats?.template ? <Badge variant="outline">{String(c.stats.template)}</Badge> : null}
      {c.decision ? (
        <Badge data-testid="candidate-decision" variant={decisionTone(c.decision)}>
          {c.decision}
        </Badge>
      ) : null}
      {accepted ? <Badge variant="success">accepted</Badge> : null}
    </CardTitle>
  );
}

function CandidateActions({
  rigId,
  candidate: c,
  review,
}: {
  rigId: string;
  candidate: RigCandidate;
  review: CandidateReview;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button size="sm" variant="outline" asChild>
        <Link data-testid="open-in-editor" href={candidateEditorHref(rigId, c)}>
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
          {c.approval.decision === 'approve' ? 'approved' : 'rejected'} by {c.approval.by}
          {c.approval.reason ? `: ${c.approval.reason}` : ''}
        </Badge>
      ) : null}
      {!c.writeError && c.decision ? (
        <>
          <Button
            size="sm"
            variant="success"
            data-testid="approve"
            disabled={review.pending}
            onClick={() => review.approve(c.id)}
          >
            Approve
          </Button>
          <Button
            size="sm"
            variant="outline"
            data-testid="reject"
            disabled={review.pending}
            onClick={() => review.startReject(c.id)}
          >
            Reject
          </Button>
        </>
      ) : null}
      {review.rejecting === c.id ? <RejectForm candidateId={c.id} review={review} /> : null}
    </div>
  );
}

function RejectForm({ candidateId, review }: { candidateId: string; review: CandidateReview }) {
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        review.confirmReject(candidateId);
      }}
    >
      <Input
        autoFocus
        data-testid="reject-reason"
        className="h-8 w-72"
        placeholder="Why reject it? (required)"
        value={review.reason}
        onChange={(e) => review.setReason(e.target.value)}
      />
      <Button
        type="submit"
        size="sm"
        variant="danger"
        data-testid="reject-confirm"
        disabled={!review.reason.trim() || review.pending}
      >
        Reject
      </Button>
    </form>
  );
}
