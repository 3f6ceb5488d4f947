// A person's decision on a rig candidate or a harness-library version, as it crosses the wire: the
// state machine's states (pending → approved | rejected, final once taken; a reversal is a new
// decision), each recorded decision, and the approval gate (why approving needs a reason).
import { z } from 'zod';

/** The verdicts a person gives (Approval.decision; the Prisma enum ApprovalDecision). */
export const DECISIONS = ['approve', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];
export const DecisionSchema = z.enum(DECISIONS);

export const DECISION_STATES = ['pending', 'approved', 'rejected'] as const;
export type DecisionState = (typeof DECISION_STATES)[number];
export const DecisionStateSchema = z.enum(DECISION_STATES);

/** One recorded decision: who, when, why, and which earlier decision it reverses (if any). */
export const DecisionRecordSchema = z.object({
  id: z.string(),
  decision: DecisionSchema,
  reason: z.string(),
  by: z.string(),
  at: z.string(),
  reversesId: z.string().nullable(),
  /** What the approval gate raised when the decision was taken (the reason answered these). */
  concerns: z.array(z.string()),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

/**
 * Why approving needs a reason, each computed from the validation run: there is none; it has not
 * finished (or was cancelled / failed); some of its episodes ended in errors; its success rate is
 * outside the target band.
 */
export const APPROVAL_CONCERNS = [
  'no_validation_run',
  'validation_incomplete',
  'validation_errors',
  'outside_band',
] as const;
export type ApprovalConcernCode = (typeof APPROVAL_CONCERNS)[number];
export const ApprovalConcernSchema = z.object({
  code: z.enum(APPROVAL_CONCERNS),
  message: z.string(),
});
export type ApprovalConcern = z.infer<typeof ApprovalConcernSchema>;

/** Where a candidate or version stands, and what approving it would take. */
export const DecisionGateSchema = z.object({
  state: DecisionStateSchema,
  /** The decision in force (the newest not reversed); null while pending. */
  current: DecisionRecordSchema.nullable(),
  /** Every decision, newest first (reversals included). */
  history: z.array(DecisionRecordSchema),
  /** The validation run the gate looked at; null when there is none. */
  validationRunId: z.string().nullable(),
  /** The target band of success rates (a rig's); null when the harness has none. */
  band: z.tuple([z.number(), z.number()]).nullable(),
  /** Non-empty: approving needs a reason, and these say why. */
  concerns: z.array(ApprovalConcernSchema),
});
export type DecisionGate = z.infer<typeof DecisionGateSchema>;

/** The state a decision in force puts its subject in. */
export function stateOf(current: { decision: Decision } | null | undefined): DecisionState {
  if (!current) return 'pending';
  return current.decision === 'approve' ? 'approved' : 'rejected';
}
