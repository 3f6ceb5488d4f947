import type { DecisionAction } from '../../harnesses/decision-rules.ts';
import { type DecisionResult, decideVersion } from '../../harnesses/decisions.ts';
import { reviewCandidate } from '../../rigger/review.ts';
import {
  type Command,
  flag,
  json,
  type OptionValues,
  stringOption,
  UsageError,
} from '../command.ts';

const USAGE =
  'harness decide (--candidate ID | --version ID) (--approve | --reject | --reverse) [--reason TEXT] [--validation-run ID] [--json]';

function subjectOf(values: OptionValues): { kind: 'candidate' | 'version'; id: string } {
  const candidate = stringOption(values, 'candidate');
  const version = stringOption(values, 'version');
  if ((candidate === undefined) === (version === undefined)) {
    throw new UsageError(`decide: name one of --candidate or --version (usage: ${USAGE})`);
  }
  return candidate !== undefined
    ? { kind: 'candidate', id: candidate }
    : { kind: 'version', id: version ?? '' };
}

function actionOf(values: OptionValues): DecisionAction {
  const chosen = (['approve', 'reject', 'reverse'] as const).filter((v) => flag(values, v));
  const [one] = chosen;
  if (chosen.length !== 1 || one === undefined) {
    throw new UsageError(`decide: give one of --approve, --reject or --reverse (usage: ${USAGE})`);
  }
  return one === 'reverse' ? { kind: 'reverse' } : { kind: 'decide', decision: one };
}

export const command: Command = {
  name: 'decide',
  summary: 'Approve or reject a rig candidate or a harness version, or reverse a decision.',
  usage: `${USAGE}
  A decision is final: a second one exits 1; --reverse records the opposite verdict with a reason.
  Rejecting and reversing need --reason; so does approving when the validation run is missing,
  unfinished, has errors or is outside the rig's band.`,
  options: {
    candidate: { type: 'string' },
    version: { type: 'string' },
    approve: { type: 'boolean' },
    reject: { type: 'boolean' },
    reverse: { type: 'boolean' },
    reason: { type: 'string' },
    'validation-run': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, io, services }) {
    const subject = subjectOf(values);
    const action = actionOf(values);
    const reason = stringOption(values, 'reason') ?? '';
    const s = await services();
    // The command line is the embedded default's single user (team members decide in the studio).
    const by = 'local';
    const r: DecisionResult =
      subject.kind === 'candidate'
        ? await reviewCandidate(s.rigDeps(), { candidateId: subject.id, action, reason, by })
        : await decideVersion(s.db, {
            harnessVersionId: subject.id,
            action,
            reason,
            by,
            validationRunId: stringOption(values, 'validation-run'),
          });
    const out = {
      [subject.kind === 'candidate' ? 'candidateId' : 'harnessVersionId']: subject.id,
      state: r.decision.decision === 'approve' ? 'approved' : 'rejected',
      decision: r.decision,
      harnessId: r.harnessId,
      harnessVersionId: r.harnessVersionId,
    };
    if (flag(values, 'json')) {
      io.out(json(out));
      return 0;
    }
    io.out(
      `${subject.kind} ${subject.id} ${out.state}${r.decision.reversesId ? ` (reverses ${r.decision.reversesId})` : ''}${r.harnessVersionId ? `; harness ${r.harnessId} version ${r.harnessVersionId}` : ''}\n`,
    );
    return 0;
  },
};
