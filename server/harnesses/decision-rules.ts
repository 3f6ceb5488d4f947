// The approval gate as plain functions: the state machine of a decision (pending → approved |
// rejected; final once taken, changed only by a reversal that is itself a new decision), when a
// decision needs a reason, and the concerns that make approving need one — each computed from the
// validation run's recorded episodes and the target band.
import {
  type ApprovalConcern,
  type Decision,
  type DecisionRecord,
  stateOf,
} from '../../contracts/decisions.ts';
import { isFinalStatus } from '../../contracts/runs.ts';
import { DomainError } from '../errors.ts';

/** A second decision on a decided subject, or a reversal of nothing: the caller's view is stale. */
export class DecisionConflictError extends DomainError {
  override readonly kind = 'conflict';
  override name = 'DecisionConflictError';
}

export type DecisionAction = { kind: 'decide'; decision: Decision } | { kind: 'reverse' };

function when(at: string): string {
  return at.replace('T', ' ').slice(0, 16);
}

/**
 * What a person's action records on a subject whose decision in force is `current`: a first
 * decision only while pending; a reversal (the opposite verdict) only once decided. `label` names
 * the subject in the one-line refusal ("candidate c1", "version v2 of harness h").
 */
export function transition(
  current: DecisionRecord | null,
  action: DecisionAction,
  label: string,
): Decision {
  const state = stateOf(current);
  if (action.kind === 'reverse') {
    if (!current) throw new DecisionConflictError(`${label} has no decision to reverse`);
    return current.decision === 'approve' ? 'reject' : 'approve';
  }
  if (!current) return action.decision;
  const why = current.reason ? `: "${current.reason}"` : '';
  throw new DecisionConflictError(
    `${label} is already ${state} (by ${current.by}, ${when(current.at)}${why}); a decision is final, reverse it with a reason to change it`,
  );
}

/** Why the decision cannot be recorded as asked, or null: reasons are what makes the gate hold. */
export function reasonProblem(o: {
  decision: Decision;
  reversing: boolean;
  reason: string;
  concerns: ApprovalConcern[];
}): string | null {
  if (o.reason.trim()) return null;
  if (o.reversing) return 'reversing a decision needs a reason (say why it changes)';
  if (o.decision === 'reject') return 'rejecting needs a reason (say why)';
  if (o.concerns.length > 0) {
    return `approving needs a reason: ${o.concerns.map((c) => c.message).join('; ')}`;
  }
  return null;
}

/** A validation run as the gate reads it: its status and the outcomes of its finished episodes. */
export interface RunEvidence {
  id: string;
  status: string;
  episodesTotal: number;
  successes: number;
  failures: number;
  errors: number;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The concerns that make approving need a reason; empty: the run speaks for itself. */
export function approvalConcerns(
  run: RunEvidence | null,
  band: readonly [number, number] | null,
): ApprovalConcern[] {
  if (!run) return [{ code: 'no_validation_run', message: 'it has no validation run' }];
  const name = `validation run ${run.id.slice(-8)}`;
  const finished = run.successes + run.failures + run.errors;
  const out: ApprovalConcern[] = [];
  if (run.status !== 'completed') {
    out.push({
      code: 'validation_incomplete',
      message: isFinalStatus(run.status)
        ? `its ${name} ${run.status === 'cancelled' ? 'was cancelled' : 'failed'} (${finished} of ${run.episodesTotal} episodes)`
        : `its ${name} has not finished (${finished} of ${run.episodesTotal} episodes)`,
    });
  }
  if (run.errors > 0) {
    out.push({
      code: 'validation_errors',
      message: `${run.errors} of ${finished} episodes of its ${name} ended in errors`,
    });
  }
  if (band) {
    const scored = run.successes + run.failures;
    const rate = scored > 0 ? run.successes / scored : null;
    const range = `${pct(band[0])}–${pct(band[1])}`;
    if (rate === null) {
      out.push({
        code: 'outside_band',
        message: `its ${name} has no scored episode to hold against the band ${range}`,
      });
    } else if (rate < band[0] - 1e-9 || rate > band[1] + 1e-9) {
      out.push({
        code: 'outside_band',
        message: `its success rate ${pct(rate)} (${run.successes}/${scored}) is outside the band ${range}`,
      });
    }
  }
  return out;
}
