'use client';
// The diagnosis: its axis and label, the text rendered from the trajectories' facts, a chip for every
// step it cites — the quote of that step, verbatim, opening the step in the trajectory viewer — and
// the checker's record: what it proved before storing the diagnosis, and what it removed and why.
import Link from 'next/link';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { checkSummary } from './diagnosis.ts';
import type { Rig } from './use-rig.ts';

type Diagnosis = Rig['diagnoses'][number];
type Evidence = Diagnosis['evidence'][number];

function EvidenceChip({ e, baselineRunId }: { e: Evidence; baselineRunId: string | null }) {
  return (
    <li>
      <Link
        href={`/runs/${baselineRunId ?? ''}/episodes/${e.episodeId}?step=${e.step}`}
        data-testid="evidence-badge"
        title={e.note}
        className="flex flex-wrap items-baseline gap-2 rounded-md px-1 py-0.5 hover:bg-secondary"
      >
        <Badge variant="warning">
          episode …{e.episodeId.slice(-5)} · step {e.step}
        </Badge>
        {e.quote ? (
          <q data-testid="evidence-quote" className="font-mono text-xs">
            {e.quote}
          </q>
        ) : null}
        {e.note ? <span className="text-xs text-muted-foreground">{e.note}</span> : null}
      </Link>
    </li>
  );
}

function CheckRecord({ check }: { check: NonNullable<Diagnosis['check']> }) {
  return (
    <div className="space-y-1 text-xs text-muted-foreground" data-testid="diagnosis-check">
      <p data-testid="diagnosis-check-summary">{checkSummary(check)}</p>
      {check.removed.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5" data-testid="diagnosis-removed">
          {check.removed.map((r) => (
            <li key={`${r.kind}:${r.what}`} data-testid="diagnosis-removed-item">
              <span className="font-medium text-danger">removed {r.kind}</span> “{r.what}” —{' '}
              {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function DiagnosisCard({
  diagnosis,
  baselineRunId,
}: {
  diagnosis: Diagnosis | undefined;
  baselineRunId: string | null;
}) {
  return (
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
            <p data-testid="diagnosis-description">{diagnosis.description}</p>
            <ul className="space-y-1" data-testid="evidence">
              {diagnosis.evidence.map((e) => (
                <EvidenceChip
                  key={`${e.episodeId}-${e.step}`}
                  e={e}
                  baselineRunId={baselineRunId}
                />
              ))}
            </ul>
            {diagnosis.check ? <CheckRecord check={diagnosis.check} /> : null}
          </>
        ) : (
          <span className="text-muted-foreground">Waiting for the baseline…</span>
        )}
      </CardContent>
    </Card>
  );
}
