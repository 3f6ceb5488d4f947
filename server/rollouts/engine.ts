// What the rollout service needs from the rest of the product, behind one seam: validating a run
// before rows are written, and executing episodes. The default engine uses the harness engine, the
// policies and an isolated worker pool; tests swap in a small in-process one.
import { kindOf } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { EpisodeInput, EpisodeResult } from './types.ts';

export interface EpisodeExecutor {
  run(input: EpisodeInput): Promise<EpisodeResult>;
  close(): Promise<void>;
}

export interface RolloutEngine {
  /** Throws a domain error (InvalidSpecError, NotFoundError, HarnessCodeError…) for a run that cannot start. */
  validate(spec: HarnessSpec, policyId: string, taskIds: string[]): Promise<void>;
  /** An executor running up to `concurrency` episodes at once. */
  executor(concurrency: number): EpisodeExecutor;
}

let engine: RolloutEngine | undefined;

export async function rolloutEngine(): Promise<RolloutEngine> {
  if (!engine) engine = (await import('./default-engine.ts')).defaultEngine;
  return engine;
}

export function setRolloutEngine(e: RolloutEngine | undefined): void {
  engine = e;
}

/** An error result for an episode whose executor failed outside the episode (worker crash, hook overrun). */
export function executorErrorResult(
  input: EpisodeInput,
  error: unknown,
  durationMs: number,
): EpisodeResult {
  const err = error instanceof Error ? error : new Error(String(error));
  const infra = kindOf(error) === 'infra';
  const e = err as Error & { hook?: unknown; line?: unknown };
  return {
    outcome: 'error',
    error: {
      kind: infra ? 'infra' : 'harness',
      name: err.name,
      message: err.message,
      ...(typeof e.hook === 'string' ? { hook: e.hook } : {}),
      ...(typeof e.line === 'number' ? { line: e.line } : {}),
    },
    steps: 0,
    invalidActions: 0,
    envReward: 0,
    durationMs,
    trajectory: [],
    taskId: input.taskId ?? '',
    seed: input.seed,
  };
}
