// What a rig answers (the CLI's JSON, the skill comparison, tests): per round the baseline, the
// diagnosis and each iteration's candidate, validation and decision.
import type { HarnessSpec } from '../harness/spec.ts';
import type { Batch, Decision, LintVerdict, StoredDiagnosis } from './types.ts';

export interface ValidationSummary {
  runId: string | null;
  successRate: number | null;
  interval: [number, number];
  failureDistribution: Record<string, number>;
  meanSteps: number | null;
  errors: number;
}

export interface IterationResult {
  iteration: number;
  candidateId: string;
  candidate: { spec: HarnessSpec; rationale: string };
  /** The designer's template (heuristic: `hide-target`, `glance+time-pressure` …; llm: `llm`). */
  template?: string;
  writeError?: string;
  /** Lint refuted the candidate before Validate: its rollouts were skipped. */
  lint?: LintVerdict;
  validation: ValidationSummary | null;
  decision: Decision;
  feedback: string;
}

export interface RoundResult {
  round: number;
  skills: string[];
  baseline: {
    runId: string;
    successRate: number | null;
    interval: [number, number];
    failureDistribution: Record<string, number>;
    meanSteps: number | null;
    cached: boolean;
  };
  diagnosis: StoredDiagnosis;
  iterations: IterationResult[];
  accepted: HarnessSpec | null;
  acceptedCandidateId: string | null;
  /** What the accepted harness taught (carried into the next round's policy). */
  lessons: string[];
}

export interface RigResult extends RoundResult {
  rigId: string;
  taskId: string;
  /** The settings that decide what a rig can do, as it ran with them. */
  settings: {
    designer: string;
    designerModel?: string;
    /** Why that designer: chosen at launch, or the policy's default (contracts/rigs.ts). */
    designerWhy: string;
    components: string[];
    k: number;
    band: [number, number];
    maxIterations: number;
    maxSteps: number;
  };
  rounds?: RoundResult[];
  durationMs: number;
}

export function validationSummary(batch: Batch): ValidationSummary {
  const s = batch.stats;
  return {
    runId: batch.runId,
    successRate: s.successRate,
    interval: s.interval,
    failureDistribution: s.failureDistribution,
    meanSteps: s.meanSteps,
    errors: s.errors,
  };
}

export function fmtRate(x: number | null): string {
  return x === null ? '-' : `${Math.round(x * 100)}%`;
}
