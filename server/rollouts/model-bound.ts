// Episodes that spend their time waiting on a model need no thread of their own. An episode of an
// LLM policy (`openai:*`) on a stack without hook code (no Contract, no Chain) runs no user code, so
// it needs no sandbox and no watchdog: it runs on the event loop, hundreds at once, bounded by the
// run's concurrency only. Every other episode goes to the isolated worker pool, whose threads bound
// it (README: "Model-bound episodes").
import { setMaxListeners } from 'node:events';
import type { BridgeResolver } from '../../bridges/core/types.ts';
import { nodePaths } from '../../contracts/spec.ts';
import { createHarness } from '../harness/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { JobAbortedError } from '../harness/worker-pool.ts';
import { getPolicy } from '../policies/index.ts';
import type { AgentSession, Policy } from '../policies/types.ts';
import type { EpisodeExecutor } from './engine.ts';
import { runEpisodeWith } from './episode.ts';
import type { EpisodeInput } from './types.ts';

/** The stack has a Contract or a Chain: hook code that must run where a watchdog can stop it. */
function runsHookCode(spec: HarnessSpec): boolean {
  return nodePaths(spec.env).some(({ node }) => node.type === 'contract' || node.type === 'chain');
}

function policyKind(policyId: string): string | undefined {
  try {
    return getPolicy(policyId).descriptor.kind;
  } catch {
    return undefined;
  }
}

/** The episode waits on a model and runs no hook code: it may run on the event loop. */
export function modelBound(input: Pick<EpisodeInput, 'spec' | 'policyId'>): boolean {
  return !runsHookCode(input.spec) && policyKind(input.policyId) === 'openai';
}

/**
 * A run of a single scripted episode on a stack without hook code has nothing to isolate and
 * nothing to run beside it: a worker thread's start (its own copy of the modules and of the
 * bridge's data, 0.3–0.5 s of CPU) would be all cost. `harness rollout` runs it on its event loop.
 */
export function singleEpisodeOnEventLoop(run: {
  spec: HarnessSpec;
  policyId: string;
  episodes: number;
}): boolean {
  return run.episodes === 1 && !runsHookCode(run.spec) && policyKind(run.policyId) === 'scripted';
}

/** A policy whose sessions stop acting once `signal` aborts (a cancelled run, a shutdown). */
function stoppable(policy: Policy, signal: AbortSignal): Policy {
  return {
    ...policy,
    async start(context): Promise<AgentSession> {
      const session = await policy.start(context);
      const stopped = new Promise<never>((_, reject) => {
        const stop = () => reject(new JobAbortedError());
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
      stopped.catch(() => undefined);
      const { close, report } = session;
      return {
        act: (observation, info) => Promise.race([session.act(observation, info), stopped]),
        ...(close ? { close: () => close.call(session) } : {}),
        ...(report ? { report: () => report.call(session) } : {}),
      };
    },
  };
}

/** Episodes on the calling thread's event loop; aborting stops one at its next model call. */
export function eventLoopExecutor(bridges: BridgeResolver): EpisodeExecutor {
  return {
    async run(input, options) {
      const signal = options?.signal;
      if (signal?.aborted) throw new JobAbortedError();
      // The episode's own signal: listeners on the run's signal (shared by all its episodes) must
      // not pile up, so the run's holds one per episode in flight, removed when it ends.
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      if (signal) setMaxListeners(0, signal); // one listener per episode in flight is no leak
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const episode = runEpisodeWith(
          {
            createHarness: (spec) => createHarness(spec, { bridges }),
            getPolicy: (id) => stoppable(getPolicy(id), stop.signal),
          },
          input,
        );
        // A cancelled run does not wait for the episode to notice.
        const aborted = new Promise<never>((_, reject) =>
          stop.signal.addEventListener('abort', () => reject(new JobAbortedError()), {
            once: true,
          }),
        );
        aborted.catch(() => undefined);
        return await Promise.race([episode, aborted]);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    close: async () => {},
  };
}

/**
 * Model-bound episodes on the event loop, the others in `pool` (at most `poolSize` at once, its
 * threads). `capacity` tells the embedded queue how many of a run's episodes can run at once.
 */
export function splitExecutor(
  pool: EpisodeExecutor,
  poolSize: number,
  eventLoop: EpisodeExecutor,
): EpisodeExecutor {
  return {
    run: (input, options) => (modelBound(input) ? eventLoop : pool).run(input, options),
    capacity: (run) => (modelBound(run) ? Number.POSITIVE_INFINITY : poolSize),
    async close() {
      await Promise.all([pool.close(), eventLoop.close()]);
    },
  };
}
