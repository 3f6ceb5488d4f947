// A run's outcome beside its status (contracts/outcomes.ts): red when episodes errored, so a
// "completed" run of nothing but harness errors cannot pass for a clean one.
import { hasErrors, RUN_OUTCOME_LABEL, type RunOutcome } from '../../contracts/outcomes.ts';
import { Badge } from '../ui/badge.tsx';

export function RunOutcomeBadge({
  outcome,
  errors,
  done,
}: {
  outcome: RunOutcome;
  errors: number;
  done: number;
}) {
  if (outcome === 'pending') return null;
  const bad = hasErrors(outcome);
  return (
    <Badge
      variant={bad ? 'danger' : 'outline'}
      data-testid="run-outcome"
      data-outcome={outcome}
      title={bad ? `${errors} of ${done} finished episodes errored (never scored)` : undefined}
    >
      {RUN_OUTCOME_LABEL[outcome]}
      {outcome === 'partial_errors' ? ` (${errors}/${done})` : ''}
    </Badge>
  );
}
