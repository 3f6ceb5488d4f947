'use client';
// A rig, live: the four stages as a timeline, the baseline run, the diagnosis with badges on the steps
// it cites (each opens the step in the trajectory viewer), every candidate with its set-up / code diff
// from the previous one, its validation run, the decision and rationale, the band as a gauge, and a
// person's approve / reject beside the automatic decision (approving files the candidate in the
// task's harness library). The rig row is polled while the loop runs; the rollouts themselves (the
// baseline, then the candidate being validated) stream over the runs SSE subscription.
import { ErrorNote, Skeleton } from '../ui/misc.tsx';
import { CandidateCard } from './candidate-card.tsx';
import { DiagnosisCard } from './diagnosis-card.tsx';
import { currentStage } from './model.ts';
import { ObserveCard, RigHeader, RigTimeline } from './rig-sections.tsx';
import { useCandidateReview, useRig } from './use-rig.ts';

export function RigPage({ id }: { id: string }) {
  const { rig, refresh } = useRig(id);
  const review = useCandidateReview(refresh);

  if (rig.error) return <ErrorNote error={rig.error} />;
  if (!rig.data) return <Skeleton className="h-96" />;
  const r = rig.data;
  const diagnosis = r.diagnoses.at(-1);
  const candidates = r.candidates;
  const current = currentStage({
    status: r.status,
    diagnosed: Boolean(diagnosis),
    last: candidates.at(-1),
  });
  const baselineRate = (diagnosis?.report?.baselineRate as number | undefined) ?? null;

  return (
    <div className="space-y-6">
      <RigHeader rig={r} />
      {r.error ? <ErrorNote error={{ message: r.error }} /> : null}
      <RigTimeline current={current} status={r.status} />
      <ObserveCard
        rig={r}
        diagnosed={Boolean(diagnosis)}
        baselineRate={baselineRate}
        onFinished={refresh}
      />
      <DiagnosisCard diagnosis={diagnosis} baselineRunId={r.baselineRunId} />
      <div className="space-y-4" data-testid="candidates">
        {candidates.map((c, i) => (
          <CandidateCard
            key={c.id}
            rig={r}
            candidate={c}
            previous={candidates[i - 1]}
            review={review}
            onFinished={refresh}
          />
        ))}
      </div>
    </div>
  );
}
