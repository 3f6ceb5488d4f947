// Recording a person's decision: one transaction locks the subject (a candidate and/or a harness
// version), re-reads the decision in force, applies the state machine (a first decision only while
// pending, a reversal only once decided), files an approved candidate in the library, writes the
// Approval row, the harness status and the audit row together — or nothing at all.
import type { ApprovalConcern, Decision, DecisionRecord } from '../../contracts/decisions.ts';
import { type AuditEntry, writeAudit } from '../auth/audit.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import {
  type DecisionAction,
  DecisionConflictError,
  reasonProblem,
  transition,
} from './decision-rules.ts';
import { type DecisionScope, loadHistory, versionGates } from './gates.ts';

type Tx = Prisma.TransactionClient;

/** Who to audit the decision as (team-mode members; the single local user keeps no trail). */
export type DecisionAudit = Omit<AuditEntry, 'target' | 'details'>;

export interface RecordDecisionInput {
  scope: DecisionScope;
  /** Names the subject in refusals: "candidate c1", "v2 of harness h". */
  label: string;
  action: DecisionAction;
  reason: string;
  by: string;
  /** What approving raises (the gate); approving with any needs a reason. */
  concerns: ApprovalConcern[];
  /** Set when the subject can never be approved (a candidate the environment rejected). */
  unapprovable?: string | undefined;
  /** The decision the caller saw in force (null: pending); another one in force is a conflict. */
  expectedCurrentId?: string | null | undefined;
  /** Approving a subject not yet in the library files it there, inside the transaction. */
  fileInLibrary?: (tx: Tx) => Promise<string>;
  audit?: DecisionAudit | undefined;
}

export interface DecisionResult {
  decision: DecisionRecord;
  /** Set once the subject is in the harness library. */
  harnessId: string | null;
  harnessVersionId: string | null;
}

/** Serialises decisions on one subject across connections (PGlite has one; PostgreSQL many). */
async function lockScope(tx: Tx, scope: DecisionScope): Promise<void> {
  if (scope.candidateId) {
    await tx.$queryRaw`SELECT id FROM "Candidate" WHERE id = ${scope.candidateId} FOR UPDATE`;
  }
  if (scope.harnessVersionId) {
    // FOR UPDATE takes a row lock; it fires no UPDATE trigger, so immutable versions allow it.
    await tx.$queryRaw`SELECT id FROM "HarnessVersion" WHERE id = ${scope.harnessVersionId} FOR UPDATE`;
  }
}

function checkReason(o: RecordDecisionInput): void {
  if (o.action.kind === 'decide' && o.action.decision === 'approve' && o.unapprovable) {
    throw new InvalidInputError(o.unapprovable);
  }
  const reversing = o.action.kind === 'reverse';
  // A reversal's verdict is known only inside the transaction; it needs a reason either way.
  const decision: Decision = o.action.kind === 'decide' ? o.action.decision : 'approve';
  const problem = reasonProblem({ decision, reversing, reason: o.reason, concerns: o.concerns });
  if (problem) throw new InvalidInputError(problem);
}

export async function recordDecision(db: Db, o: RecordDecisionInput): Promise<DecisionResult> {
  checkReason(o);
  const reason = o.reason.trim();
  return db.$transaction(
    async (tx) => {
      await lockScope(tx, o.scope);
      const { current } = await loadHistory(tx, o.scope);
      // The state machine first: a second decision is refused with who decided, when and why.
      const decision = transition(current, o.action, o.label);
      if (o.expectedCurrentId !== undefined && (current?.id ?? null) !== o.expectedCurrentId) {
        throw new DecisionConflictError(
          `the decision on ${o.label} changed meanwhile; reload to see it`,
        );
      }
      if (decision === 'approve' && o.unapprovable) throw new InvalidInputError(o.unapprovable);
      const versionId =
        o.scope.harnessVersionId ??
        (decision === 'approve' && o.fileInLibrary ? await o.fileInLibrary(tx) : null);
      const row = await tx.approval.create({
        data: {
          candidateId: o.scope.candidateId,
          harnessVersionId: versionId,
          decision,
          reason,
          by: o.by,
          reversesId: o.action.kind === 'reverse' ? (current?.id ?? null) : null,
          concerns: decision === 'approve' ? o.concerns.map((c) => c.message) : [],
        },
        select: { id: true, at: true, reversesId: true, concerns: true },
      });
      const harnessId = versionId ? await setHarnessStatus(tx, versionId, decision) : null;
      if (o.audit) {
        await writeAudit(tx, {
          ...o.audit,
          target: o.scope.candidateId ?? versionId,
          details: {
            decision,
            reason,
            ...(row.reversesId ? { reverses: row.reversesId } : {}),
            ...(row.concerns.length ? { concerns: row.concerns } : {}),
            ...(versionId ? { harnessVersionId: versionId } : {}),
          },
        });
      }
      return {
        decision: { ...row, decision, reason, by: o.by, at: row.at.toISOString() },
        harnessId,
        harnessVersionId: versionId,
      };
    },
    // A few short statements, but a loaded machine (or a busy single PGlite connection) can stretch
    // Prisma's 2 s / 5 s defaults; a decision that waits is better than one refused.
    { maxWait: 10_000, timeout: 20_000 },
  );
}

/** The harness takes the status of its latest decision (the list shows it). */
async function setHarnessStatus(tx: Tx, versionId: string, decision: Decision): Promise<string> {
  const v = await tx.harnessVersion.findUniqueOrThrow({
    where: { id: versionId },
    select: { harnessId: true },
  });
  await tx.harness.update({
    where: { id: v.harnessId },
    data: { status: decision === 'approve' ? 'approved' : 'rejected' },
  });
  return v.harnessId;
}

/** The gate of one harness version, on the validation run asked for (else its newest). */
export async function versionGate(db: Db, harnessVersionId: string, validationRunId?: string) {
  await versionLabel(db, harnessVersionId);
  const gates = await versionGates(
    db,
    [harnessVersionId],
    validationRunId ? { [harnessVersionId]: validationRunId } : {},
  );
  const g = gates.get(harnessVersionId);
  if (!g) throw new NotFoundError(`harness version '${harnessVersionId}' not found`);
  return g;
}

async function versionLabel(db: Db, id: string): Promise<string> {
  const v = await db.harnessVersion.findUnique({
    where: { id },
    select: { version: true, harness: { select: { name: true } } },
  });
  if (!v) throw new NotFoundError(`harness version '${id}' not found`);
  return `v${v.version} of harness "${v.harness.name}"`;
}

export interface VersionDecisionInput {
  harnessVersionId: string;
  reason: string;
  by: string;
  /** The run the person looked at (the review page's pick); by default the newest. */
  validationRunId?: string | undefined;
  expectedCurrentId?: string | null | undefined;
  audit?: DecisionAudit | undefined;
}

/**
 * A decision on a harness-library version, from the harness page or the CLI. A version filed from a
 * rig candidate shares the candidate's decision (one history, either page shows it).
 */
export async function decideVersion(
  db: Db,
  input: VersionDecisionInput & { action: DecisionAction },
): Promise<DecisionResult> {
  const label = await versionLabel(db, input.harnessVersionId);
  const g = await versionGate(db, input.harnessVersionId, input.validationRunId);
  const linked = await db.candidate.findFirst({
    where: { harnessVersionId: input.harnessVersionId },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  return recordDecision(db, {
    scope: { candidateId: linked?.id ?? null, harnessVersionId: input.harnessVersionId },
    label,
    action: input.action,
    reason: input.reason,
    by: input.by,
    concerns: g.concerns,
    expectedCurrentId: input.expectedCurrentId,
    audit: input.audit,
  });
}
