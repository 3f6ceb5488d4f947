// What the rig page derives from a rig row, as plain functions: which of the four stages the loop is
// in, a candidate's stack and set-up in one line each, its rate against the band, and its diff from
// the previous candidate. The views only render these.
import { type Problem, problemsOf } from '../../contracts/issues.ts';
import { RigInputSchema } from '../../contracts/launch.ts';
import { type ComponentName, defaultDesigner, PAPER_COMPONENTS } from '../../contracts/rigs.ts';
import { isFinalStatus } from '../../contracts/runs.ts';
import type { HarnessNode, HarnessSpec } from '../../contracts/spec.ts';
import { type LineOp, type SpecChange, specDiff } from '../harness-graph/diff.ts';

export type Stage = 'observe' | 'diagnose' | 'write' | 'validate';
export const STAGES: { id: Stage; label: string }[] = [
  { id: 'observe', label: 'Observe' },
  { id: 'diagnose', label: 'Diagnose' },
  { id: 'write', label: 'Write' },
  { id: 'validate', label: 'Validate' },
];

export type StageState = 'active' | 'done' | 'pending';
export type BadgeTone = 'success' | 'danger' | 'warning' | 'info';

/**
 * How a task is shown: the rig's own (pinned) task by the display id the server computed with the
 * bridge's displayTaskId capability, any other task as it is.
 */
export function taskShownFor(rig: { taskId: string; displayTaskId: string }) {
  return (task: string) => (task === rig.taskId ? rig.displayTaskId : task);
}

/** The stack from the top layer down to the first environment, one label per layer. */
export function layers(node: HarnessNode, show: (task: string) => string = (t) => t): string[] {
  if (node.type === 'base') return [`${node.bridge}:${show(node.task)}`];
  if (node.type === 'chain') return [`chain (${node.mode})`, ...layers(node.first, show)];
  return [node.type, ...layers(node.env, show)];
}

/** The set-up actions the stack replays after reset, outermost Stage first. */
export function setupOf(node: HarnessNode): string[] {
  if (node.type === 'stage')
    return [
      ...node.actions.map((a) => String(Object.values(a.args)[0] ?? a.name)),
      ...setupOf(node.env),
    ];
  if (node.type === 'contract') return setupOf(node.env);
  if (node.type === 'chain') return setupOf(node.first);
  return [];
}

/** The stage the loop is in: no diagnosis yet → observe; a candidate being validated → validate. */
export function currentStage(rig: {
  status: string;
  diagnosed: boolean;
  last: { decision: string | null; validationRunId: string | null } | undefined;
}): Stage {
  if (isFinalStatus(rig.status)) return 'validate';
  if (!rig.diagnosed) return 'observe';
  if (rig.last && !rig.last.decision && rig.last.validationRunId) return 'validate';
  return 'write';
}

/** A stage on the timeline: the current one is active while the rig runs; earlier ones are done. */
export function stageState(stage: Stage, current: Stage, status: string): StageState {
  if (stage === current && !isFinalStatus(status)) return 'active';
  const index = (s: Stage) => STAGES.findIndex((x) => x.id === s);
  return index(stage) <= index(current) ? 'done' : 'pending';
}

export function rigStatusTone(status: string): BadgeTone {
  return status === 'completed' ? 'success' : status === 'failed' ? 'danger' : 'info';
}

export function decisionTone(decision: string): BadgeTone {
  return decision === 'accept' ? 'success' : decision === 'reject' ? 'danger' : 'warning';
}

/** The band's edges count as inside (the rates are fractions of K; allow float noise). */
export function inBand(band: [number, number], rate: number | null): boolean {
  return rate !== null && rate >= band[0] - 1e-9 && rate <= band[1] + 1e-9;
}

export function candidateRate(stats: Record<string, unknown> | null): number | null {
  return typeof stats?.successRate === 'number' ? stats.successRate : null;
}

/** Where "Open in editor" goes: the library version once approved, else the candidate itself. */
export function candidateEditorHref(
  rigId: string,
  candidate: { id: string; library: { harnessId: string; version: number } | null },
): string {
  return candidate.library
    ? `/harnesses/${candidate.library.harnessId}?version=${candidate.library.version}`
    : `/rigs/${rigId}/candidates/${candidate.id}`;
}

export interface CandidateChange extends SpecChange {
  id: string;
  /** Only the added and removed lines of a code change, each with a stable key. */
  changed: (LineOp & { id: string })[];
}

/** What changed from the previous candidate (none for the first). */
export function candidateChanges(
  before: HarnessSpec | undefined,
  after: HarnessSpec,
): CandidateChange[] {
  return (before ? specDiff(before, after) : []).map((c, i) => ({
    ...c,
    id: `${c.path}:${c.kind}:${c.field ?? ''}:${i}`,
    changed: (c.lines ?? [])
      .filter((l) => l.op !== 'same')
      .map((l, j) => ({ ...l, id: `${l.op}:${j}` })),
  }));
}

export interface RigForm {
  policy: string;
  /** '' : the policy decides (openai:<model> → llm on that model, scripted → heuristic). */
  designer: '' | 'heuristic' | 'llm';
  /** What the designer may write: Stage and Contract (the paper's), Chain on opt-in. */
  components: ComponentName[];
  k: number;
  iterations: number;
  lo: number;
  hi: number;
  defect: string;
}

export const DEFAULT_RIG_FORM: RigForm = {
  policy: '',
  designer: '',
  components: [...PAPER_COMPONENTS],
  k: 5,
  iterations: 5,
  lo: 0.4,
  hi: 0.6,
  defect: '',
};

/** The rig launch input from the form: a blank defect is left out, a typed one trimmed. */
export function rigLaunchInput(bridge: string, task: string, policy: string, form: RigForm) {
  return {
    task: `${bridge}:${task}`,
    policy,
    ...(form.designer ? { designer: form.designer } : {}),
    components: form.components,
    k: form.k,
    maxIterations: form.iterations,
    band: [form.lo, form.hi] as [number, number],
    ...(form.defect.trim() ? { defect: form.defect.trim() } : {}),
  };
}

/** The designer a rig will use, and why, as the form shows it before launching. */
export function designerNote(policy: string, designer: RigForm['designer']): string {
  if (designer) return `${designer}: chosen here`;
  const d = defaultDesigner(policy);
  return `${d.designer}${d.model ? ` (${d.model})` : ''}: ${d.why}`;
}

/** The rig launch input's problems under the server's schema (none: it may be sent). */
export function rigLaunchProblems(input: unknown): Problem[] {
  const parsed = RigInputSchema.safeParse(input);
  return parsed.success ? [] : problemsOf(parsed.error);
}

/** The ranges of the rig form's numbers, from the server's schema. */
export const RIG_FIELD_RANGE = {
  k: RigInputSchema.shape.k.unwrap(),
  maxIterations: RigInputSchema.shape.maxIterations.unwrap(),
};
