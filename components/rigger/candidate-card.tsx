'use client';
import Link from 'next/link';
// One candidate of a rig: its stack, set-up and diff from the previous candidate, its validation run
// against the band, the automatic decision, and a person's decision beside it (approving files the
// candidate in the task's harness library; a decided candidate shows who, when and why instead).
import { isFinalStatus } from '../../contracts/runs.ts';
import { DecisionPanel, useDecisionRights } from '../harnesses/decision.tsx';
import { pct } from '../runs/format.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
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
        <LintSkip stats={c.stats} />
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

/** Solvability lint refuted the candidate before Validate: its rollouts were never launched. */
function LintSkip({ stats }: { stats: RigCandidate['stats'] }) {
  const lint = stats?.lint as { solvable?: unknown; skippedRollouts?: unknown } | undefined;
  if (lint?.solvable !== 'refuted') return null;
  const skipped = typeof lint.skippedRollouts === 'number' ? lint.skippedRollouts : 0;
  return (
    <div className="flex items-center gap-2 text-xs" data-testid="candidate-lint">
      <Badge variant="warning">lint: unsolvable</Badge>
      <span className="text-muted-foreground">
        refuted before Validate — {skipped} rollout{skipped === 1 ? '' : 's'} not launched
      </span>
    </div>
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
      {c.stats?.template ? (
        <Badge variant="outline" data-testid="candidate-template" title="The designer's template">
          {String(c.stats.template)}
        </Badge>
      ) : null}
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
  const rights = useDecisionRights();
  // A person decides once the loop has judged the candidate (or any time after a decision).
  const decidable = !c.writeError && (c.decision !== null || c.gate.current !== null);
  return (
    <div className="flex flex-col gap-2">
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
      </div>
      {decidable ? (
        <DecisionPanel
          key={c.gate.current?.id ?? 'pending'}
          gate={c.gate}
          rights={rights}
          actions={review.actionsFor(c.id)}
          compact
        />
      ) : null}
    </div>
  );
}
