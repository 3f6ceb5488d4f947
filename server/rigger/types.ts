// EnvRigger's shared shapes: what Observe produces, what a designer diagnoses and writes, and what
// Validate decides. Designers see trajectories and the environment's interface, never the policy.
import { z } from 'zod';
import type { Action, Json, TaskFilter, TaskInfo, ToolSpec } from '../../bridges/core/types.ts';
import { BandSchema } from '../../contracts/launch.ts';
import type { LintFinding, LintResult } from '../../contracts/lint.ts';
import type {
  Axis,
  Claim,
  ComponentName,
  DiagnosisCheck,
  Evidence,
  StoredEvidence,
} from '../../contracts/rigs.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';

export {
  AXES,
  type Axis,
  type Claim,
  type DiagnosisCheck,
  type Evidence,
  type StoredEvidence,
} from '../../contracts/rigs.ts';

export type Direction = 'scaffold' | 'harder' | 'none';
export type Decision = 'accept' | 'refine' | 'reject';

export interface DiagnosisReport {
  axis: Axis;
  /** A short kebab-case name of the behaviour, e.g. `never-opens-closed-receptacles`. */
  label: string;
  /** Rendered from facts measured on the trajectories; each negative statement is a claim. */
  description: string;
  evidence: Evidence[];
  direction: Direction;
  /** Other behaviours found, weaker than the main one. */
  secondary?: { axis: Axis; label: string; description: string }[];
  /** The negative claims the texts make, checked against every step of the episodes they name. */
  claims?: Claim[];
  /** Set by the checker (diagnosis-check.ts) before the diagnosis is stored. */
  check?: DiagnosisCheck;
}

/** A diagnosis as read back: evidence stored before quotes existed has none. */
export type StoredDiagnosis = Omit<DiagnosisReport, 'evidence'> & { evidence: StoredEvidence[] };

export interface ObservedEpisode {
  episodeId: string;
  seed: number;
  outcome: 'success' | 'failure' | 'error';
  failureCategory: string | null;
  errorMessage: string | null;
  steps: number;
  trajectory: StepRecord[];
}

export interface BatchStats {
  n: number;
  successes: number;
  successRate: number | null;
  interval: [number, number];
  failureDistribution: Record<string, number>;
  meanSteps: number | null;
  meanStepsSuccess: number | null;
  /** Episodes that ended on the step budget. */
  timeouts: number;
  /** Harness / policy / infra errors (never scored). */
  errors: number;
  errorMessages: string[];
}

export interface Batch {
  runId: string;
  seeds: number[];
  episodes: ObservedEpisode[];
  stats: BatchStats;
  cached?: boolean;
}

export interface CandidateDraft {
  spec: HarnessSpec;
  rationale: string;
  /** Designer bookkeeping (template and parameters), persisted with the candidate's stats. */
  template?: string;
  params?: Json;
}

/** The lint gate's verdict on a candidate it stopped before Validate (server/lint). */
export interface LintVerdict {
  solvable: LintResult['solvable'];
  findings: LintFinding[];
  shortestKnown: number | null;
  /** Rollouts not launched because of it (the rig's K). */
  skippedRollouts: number;
}

export interface Attempt {
  iteration: number;
  candidate: CandidateDraft;
  /** The environment rejected the set-up, or the code did not compile: sent back to Write. */
  writeError?: string;
  /** Solvability lint refuted the candidate: no rollouts were launched; the findings go to Write. */
  lint?: LintVerdict;
  validation?: Batch;
  decision: Decision;
  feedback: string;
}

export { BandSchema };

export const RigConstraintsSchema = z.object({
  band: BandSchema.default([0.4, 0.6]),
  stepsBand: BandSchema.optional(),
  defect: z.string().max(2000).optional(),
});
export type RigConstraints = z.infer<typeof RigConstraintsSchema>;

/** What a designer may look at: the task, the environment's interface, trajectories, earlier attempts. */
export interface DesignContext {
  bridge: string;
  /** The task id the rig runs on, pinned to one start state (Bridge.pinTask; household `<id>@scene0`). */
  taskId: string;
  task: TaskInfo;
  baseSpec: HarnessSpec;
  tools: ToolSpec[];
  stateSchema: Json;
  constraints: RigConstraints;
  /** What candidates may use: Stage and Contract in paper mode (the default), Chain on opt-in. */
  components: readonly ComponentName[];
  /** The agent's step budget per episode (the run's maxSteps). */
  maxSteps: number;
  baseline: Batch;
  diagnosis?: StoredDiagnosis;
  attempts: Attempt[];
  /**
   * The state view right after reset (what the paper's designer sees as the state schema's values);
   * used only when writing a candidate, never for the diagnosis.
   */
  initialState(): Promise<Json>;
  /** Replays actions on a fresh environment: the results the designer can use to check a set-up. */
  tryActions(actions: Action[]): Promise<TryResult[]>;
  /** The other tasks of the same bridge (e.g. one to chain after this one). */
  listTasks(filter?: TaskFilter): Promise<TaskInfo[]>;
}

export interface TryResult {
  text: string;
  invalid: boolean;
  admissible?: string[];
}

export interface TraceVerdict {
  decision: Decision;
  feedback: string;
}

export interface Designer {
  readonly name: string;
  diagnose(ctx: DesignContext): Promise<DiagnosisReport>;
  /** The next candidate, or undefined when the designer has nothing left to try. */
  write(ctx: DesignContext): Promise<CandidateDraft | undefined>;
  /** Optional second opinion on a validation (the statistics rule always has the last word on accept). */
  decide?(ctx: DesignContext, attempt: Attempt, rule: TraceVerdict): Promise<TraceVerdict>;
  close?(): Promise<void>;
}
