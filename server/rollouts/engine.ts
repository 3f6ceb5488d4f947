// The ports of the rollout service: what it needs from the rest of the product, each behind one
// interface that the composition root (server/compose.ts) fills in. The default engine uses the
// harness engine, the policies and an isolated worker pool (default-engine.ts); tests hand in a small
// in-process one. Skills implement PolicyOptionsResolver (a run's skill bank), so rollouts never
// import skills.
import type { Json } from '../../bridges/core/types.ts';
import { kindOf } from '../errors.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { EpisodeInput, EpisodeResult } from './types.ts';

export interface EpisodeExecutor {
  /**
   * Runs one episode. Aborting `signal` (a cancelled run, a shutdown) stops it where the executor
   * can — the worker pool terminates its thread — and rejects; the result is never recorded.
   */
  run(input: EpisodeInput, options?: { signal?: AbortSignal }): Promise<EpisodeResult>;
  close(): Promise<void>;
  /**
   * How many episodes of a run like this it plays at once: its threads, or no bound of its own for
   * episodes that only wait on a model (model-bound.ts). Unset: the size it was built with.
   */
  capacity?(run: Pick<EpisodeInput, 'spec' | 'policyId'>): number;
}

export interface RolloutEngine {
  /**
   * Throws a domain error (InvalidSpecError, NotFoundError, HarnessCodeError…) for a run that cannot
   * start, policy options the policy refuses included.
   */
  validate(
    spec: HarnessSpec,
    policyId: string,
    taskIds: string[],
    policyOptions?: Record<string, Json>,
  ): Promise<void>;
  /** An executor running up to `concurrency` episodes at once (its worker threads bounded by it). */
  executor(concurrency: number): EpisodeExecutor;
}

export type PolicyOptions = Record<string, Json>;

/** A run's policy options as its episodes get them. */
export interface ResolvedRunOptions {
  /** Options every episode gets. */
  shared: PolicyOptions | undefined;
  /** Per-task additions (e.g. skills retrieved for each task's goal). */
  perTask?: Record<string, PolicyOptions>;
}

/**
 * Expands what a run stores in its policy options (e.g. a skill bank id) into what the policy reads.
 * `check` runs at launch, before any row is written; `resolve` once per run, in the process that
 * executes its episodes.
 */
export interface PolicyOptionsResolver {
  check(options: PolicyOptions | undefined): Promise<void>;
  resolve(run: {
    policy: string;
    bridge: string;
    taskIds: string[];
    policyOptions: PolicyOptions | undefined;
  }): Promise<ResolvedRunOptions>;
}

/** Options pass through unchanged (no skill banks wired in). */
export const PASS_THROUGH_OPTIONS: PolicyOptionsResolver = {
  check: async () => {},
  resolve: async (run) => ({ shared: run.policyOptions }),
};

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
