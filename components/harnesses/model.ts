// What the harness pages derive from a harness and its runs, as plain functions: the version on
// screen (?version=N, else the newest), the version diff range (?diff=a..b), the baseline and
// candidate runs a review compares, the decision history across versions, and who may decide
// and when a decision needs a reason.

interface VersionLike {
  version: number;
}

/** The requested version, or the newest one when none (or an unknown one) is asked for. */
export function versionAt<V extends VersionLike>(
  versions: V[],
  requested: string | undefined,
): V | undefined {
  return versions.find((v) => String(v.version) === requested) ?? versions.at(-1);
}

/** `?diff=a..b` as its two ends ('' for an end not chosen). */
export function parseDiffRange(param: string | undefined): [string, string] {
  const [from = '', to = ''] = (param ?? '').split('..');
  return [from, to];
}

/** The range after picking one end; the other end defaults to the oldest / newest version. */
export function diffRangeWith(
  end: 'from' | 'to',
  value: string,
  [from, to]: [string, string],
  versions: VersionLike[],
): string {
  return end === 'from'
    ? `${value}..${to || versions.at(-1)?.version}`
    : `${from || versions[0]?.version}..${value}`;
}

interface RunLike {
  id: string;
  status: string;
  policy: string;
  harnessed: boolean;
  harnessVersionId: string | null;
}

/**
 * The runs a review compares: the candidate is a validation run of the version (the requested one,
 * else the first completed, else the newest); the baseline a bare run (the requested one, else a
 * completed one of the candidate's policy, else the newest).
 */
export function reviewPair<R extends RunLike>(
  runs: R[],
  versionId: string | undefined,
  requested: { candidate?: string | undefined; baseline?: string | undefined },
) {
  const candidates = runs.filter((r) => r.harnessVersionId === versionId);
  const candidateId =
    requested.candidate ??
    candidates.find((r) => r.status === 'completed')?.id ??
    candidates[0]?.id;
  const candidateRun = runs.find((r) => r.id === candidateId);
  const baselines = runs.filter((r) => !r.harnessed);
  const baselineId =
    requested.baseline ??
    (
      baselines.find((r) => r.policy === candidateRun?.policy && r.status === 'completed') ??
      baselines[0]
    )?.id;
  return { candidates, baselines, candidateId, baselineId };
}

interface Recorded {
  id: string;
  at: string;
}

/** Every decision on every version, newest first, each with its version's number and name. */
export function decisionHistory<A extends Recorded>(
  versions: { version: number; name: string; gate: { history: A[] } }[],
): (A & { version: number; versionName: string })[] {
  return versions
    .flatMap((v) => v.gate.history.map((d) => ({ ...d, version: v.version, versionName: v.name })))
    .sort((x, y) => new Date(y.at).getTime() - new Date(x.at).getTime());
}

/** Who is asking (auth.me): the single local user, or a team member with a role, or a share link. */
export interface MeLike {
  mode: 'local' | 'team';
  role: string | null;
  share?: unknown;
}

/**
 * Whether this person may decide, and if not, the sentence the disabled buttons show. Mirrors the
 * server's rule (researcher or admin in the active project); the server still refuses on its own.
 */
export function decisionRights(me: MeLike | undefined): { allowed: boolean; why: string | null } {
  if (!me) return { allowed: false, why: null };
  if (me.mode === 'local') return { allowed: true, why: null };
  if (me.share) return { allowed: false, why: 'A share link opens this page read-only.' };
  if (me.role === 'researcher' || me.role === 'admin') return { allowed: true, why: null };
  if (me.role === 'viewer') {
    return {
      allowed: false,
      why: 'Deciding needs the researcher role; you are a viewer in this project.',
    };
  }
  return { allowed: false, why: 'You are not a member of this project.' };
}

export type DecisionVerb = 'approve' | 'reject' | 'reverse';

/** Whether the action needs a typed reason: rejections and reversals always; approvals with concerns. */
export function needsReason(verb: DecisionVerb, concerns: readonly unknown[]): boolean {
  return verb !== 'approve' || concerns.length > 0;
}

export function decisionLabel(decision: string): 'approved' | 'rejected' {
  return decision === 'approve' ? 'approved' : 'rejected';
}
