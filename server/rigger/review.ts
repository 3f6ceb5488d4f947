// A person's review of a rig candidate, beside the automatic decision (never replacing it): approve
// or reject once, or reverse a decision with a reason (server/harnesses/decisions.ts records it, in
// one transaction with its audit row). Approving files the candidate's spec in the task's harness
// library: one harness per rig (made on the first approval, later ones add versions), an immutable
// version linked from the candidate, the harness marked approved.
import type { DecisionGate } from '../../contracts/decisions.ts';
import type { Prisma } from '../db/generated/client.ts';
import { NotFoundError } from '../errors.ts';
import { parseSpec } from '../harness/index.ts';
import type { DecisionAction } from '../harnesses/decision-rules.ts';
import { type DecisionAudit, type DecisionResult, recordDecision } from '../harnesses/decisions.ts';
import { candidateGates } from '../harnesses/gates.ts';
import { createHarnessWithVersion, saveHarnessVersion } from '../harnesses/library.ts';
import { candidateSelect } from './records.ts';
import { type RigStore, shownTaskId } from './service.ts';

type Tx = Prisma.TransactionClient;

const REVIEWED_CANDIDATE = {
  ...candidateSelect,
  harnessVersionId: true,
  rig: { select: { id: true, bridge: true, taskId: true, policy: true, projectId: true } },
} satisfies Prisma.CandidateSelect;
type ReviewedCandidate = Prisma.CandidateGetPayload<{ select: typeof REVIEWED_CANDIDATE }>;

/**
 * How an approved candidate is filed, called inside the decision's transaction. Its names are
 * worked out first: resolving the bridge (for the task's display id) may load it, which must not
 * hold a transaction open.
 */
async function libraryFiler(
  { bridges }: RigStore,
  c: ReviewedCandidate,
  o: { by: string; projectId?: string | undefined },
): Promise<(tx: Tx) => Promise<string>> {
  const spec = parseSpec(c.spec);
  const template = (c.stats as { template?: unknown } | null)?.template;
  const versionName = `#${c.iteration + 1}${c.round > 0 ? ` round ${c.round + 1}` : ''}${
    typeof template === 'string' ? ` · ${template}` : ''
  }`;
  const note = c.rationale.slice(0, 2000);
  const task = await shownTaskId(bridges, c.rig.bridge, c.rig.taskId);
  return async (tx) => {
    const sibling = await tx.candidate.findFirst({
      where: { rigId: c.rig.id, harnessVersionId: { not: null } },
      select: { harnessVersion: { select: { harnessId: true } } },
    });
    const harnessId = sibling?.harnessVersion?.harnessId;
    const version = harnessId
      ? await saveHarnessVersion(tx, { harnessId, name: versionName, spec, note, createdBy: o.by })
      : (
          await createHarnessWithVersion(tx, {
            name: `EnvRigger: ${task} vs ${c.rig.policy}`,
            spec,
            versionName,
            note,
            description: `Approved from rig ${c.rig.id} (${c.rig.bridge}:${c.rig.taskId}, policy ${c.rig.policy}).`,
            createdBy: o.by,
            projectId: o.projectId ?? c.rig.projectId,
            // Filed under the benchmark task (the spec itself keeps the pinned scene).
            taskId: task,
          })
        ).version;
    await tx.candidate.update({ where: { id: c.id }, data: { harnessVersionId: version.id } });
    return version.id;
  };
}

export interface CandidateReviewInput {
  candidateId: string;
  reason?: string | undefined;
  by: string;
  projectId?: string | undefined;
  /** The decision the person saw in force (null: pending); another one is a conflict. */
  expectedCurrentId?: string | null | undefined;
  audit?: DecisionAudit | undefined;
}

/** Where the decision on a candidate stands and what approving it would need. */
export async function candidateGate({ db }: RigStore, candidateId: string): Promise<DecisionGate> {
  const gate = (await candidateGates(db, [candidateId])).get(candidateId);
  if (!gate) throw new NotFoundError(`candidate '${candidateId}' not found`);
  return gate;
}

/**
 * Approve or reject a candidate (`decide`, only while pending), or reverse the decision in force
 * (`reverse`, with a reason). Approving needs a reason when its validation run is missing,
 * unfinished, has errors, or lands outside the rig's band; rejecting always does.
 */
export async function reviewCandidate(
  store: RigStore,
  input: CandidateReviewInput & { action: DecisionAction },
): Promise<DecisionResult> {
  const c = await store.db.candidate.findUnique({
    where: { id: input.candidateId },
    select: REVIEWED_CANDIDATE,
  });
  if (!c) throw new NotFoundError(`candidate '${input.candidateId}' not found`);
  const gate = await candidateGate(store, c.id);
  return recordDecision(store.db, {
    scope: { candidateId: c.id, harnessVersionId: c.harnessVersionId },
    label: `candidate ${c.id}`,
    action: input.action,
    reason: input.reason ?? '',
    by: input.by,
    concerns: gate.concerns,
    unapprovable: c.writeError
      ? 'a candidate the environment rejected cannot be approved'
      : undefined,
    expectedCurrentId: input.expectedCurrentId,
    // Only a decision that may approve (a first approval, or reversing a rejection) files it.
    fileInLibrary:
      c.harnessVersionId ||
      c.writeError ||
      (input.action.kind === 'decide' && input.action.decision === 'reject')
        ? undefined
        : await libraryFiler(store, c, input),
    audit: input.audit,
  });
}
