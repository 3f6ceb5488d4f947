// The production engine: validation through the harness engine and the policy registry, episodes in
// an IsolatedPool of worker threads (a hook past its deadline or a crash costs one worker and is
// recorded as a harness error, never the process).
import { fileURLToPath } from 'node:url';
import type { BridgeResolver, Json } from '../../bridges/core/types.ts';
import { firstBase } from '../../contracts/spec.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { createHarness, nodePaths } from '../harness/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { IsolatedPool } from '../harness/worker-pool.ts';
import { getPolicy } from '../policies/index.ts';
import { keepLoaded } from './bridge-cache.ts';
import type { EpisodeExecutor, RolloutEngine } from './engine.ts';
import { runEpisode } from './episode.ts';
import { eventLoopExecutor, splitExecutor } from './model-bound.ts';
import type { EpisodeResult } from './types.ts';

const HANDLERS = fileURLToPath(new URL('./worker-handlers.ts', import.meta.url));

export async function validateRun(
  bridges: BridgeResolver,
  spec: HarnessSpec,
  policyId: string,
  taskIds: string[],
  policyOptions?: Record<string, Json>,
): Promise<void> {
  const policy = getPolicy(policyId);
  if (policy.descriptor.kind === 'human') {
    // Episodes run in worker threads with no terminal: a person plays through `harness play`.
    throw new InvalidInputError(
      `policy '${policyId}' is played interactively (harness play), not in rollouts`,
    );
  }
  // Options the policy would refuse at every episode's start fail the launch instead.
  const problems = policy.checkOptions?.(policyOptions) ?? [];
  if (problems.length > 0) throw new InvalidInputError(problems.join(' '));
  const harness = await createHarness(spec, { bridges });
  try {
    // A Stage set-up action the environment rejects is an error before any rollout (DESIGN), so
    // replay the set-ups once. Only for stacks without hook code: a hostile hook must run in a
    // worker (where the watchdog can stop it), never on the server's thread.
    const nodes = nodePaths(spec.env).map(({ node }) => node.type);
    const runsCode = nodes.includes('contract') || nodes.includes('chain');
    if (nodes.includes('stage') && !runsCode) {
      await harness.reset({ seed: 0, ...(taskIds[0] ? { taskId: taskIds[0] } : {}) });
    }
  } finally {
    await harness.close();
  }
  const base = firstBase(spec.env);
  const bridge = await bridges.get(base.bridge);
  if (!bridge) throw new NotFoundError(`unknown bridge '${base.bridge}'`);
  for (const taskId of taskIds) {
    if (!(await bridge.getTask(taskId))) {
      throw new NotFoundError(`unknown task '${taskId}' for bridge '${base.bridge}'`);
    }
  }
}

/** Workers of a rollout pool without an episode this long are stopped (started again on demand). */
export const ROLLOUT_WORKER_IDLE_MS = 15_000;

/**
 * Episodes in at most `size` worker threads, started as episodes wait and stopped when idle; an
 * aborted episode's thread is terminated, so a cancelled run gives its threads back at once.
 */
export function poolExecutor(size: number, o: { idleMs?: number } = {}): EpisodeExecutor {
  const pool = new IsolatedPool({
    size,
    module: HANDLERS,
    idleMs: o.idleMs ?? ROLLOUT_WORKER_IDLE_MS,
  });
  return {
    run: (input, options) => pool.run<EpisodeResult>('runEpisode', input, options),
    close: () => pool.close(),
  };
}

/** Episodes on the calling thread (no hook isolation beyond the sandbox's own limits). */
export function inProcessExecutor(bridges: BridgeResolver): EpisodeExecutor {
  const kept = keepLoaded(bridges);
  return { run: (input) => runEpisode(input, kept), close: async () => {} };
}

/** How the composition root builds an engine over its bridges. */
export type EngineFactory = (bridges: BridgeResolver) => RolloutEngine;

/**
 * The production engine. Its worker threads resolve bridges from the same configuration
 * (worker-handlers.ts builds their registry); validation here uses the given one.
 */
export const defaultEngine: EngineFactory = (bridges) => ({
  validate: (spec, policyId, taskIds, options) =>
    validateRun(bridges, spec, policyId, taskIds, options),
  executor: (concurrency) =>
    splitExecutor(poolExecutor(concurrency), concurrency, eventLoopExecutor(bridges)),
});

/**
 * Every episode on the calling thread's event loop, stoppable at its next action: for a run with
 * no hook code that a thread would only slow down (model-bound.ts, singleEpisodeOnEventLoop).
 */
export const eventLoopEngine: EngineFactory = (bridges) => ({
  validate: (spec, policyId, taskIds, options) =>
    validateRun(bridges, spec, policyId, taskIds, options),
  executor: () => eventLoopExecutor(bridges),
});

/** Episodes on the calling thread: for scripted policies with the designer's own templates. */
export const inProcessEngine: EngineFactory = (bridges) => ({
  validate: (spec, policyId, taskIds, options) =>
    validateRun(bridges, spec, policyId, taskIds, options),
  executor: () => inProcessExecutor(bridges),
});
