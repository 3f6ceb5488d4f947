// Writes a scripted agent as straight-line async code: `await io.act(action)` returns the next
// observation. The session turns that into the engine's act() calls, one decision per call.
import type { Action, Observation } from '../../../bridges/core/types.ts';
import type { AgentSession, PolicyDecision } from '../types.ts';

export interface AgentIo {
  act(action: Action, note?: string): Promise<Observation>;
  /** Steps taken so far. */
  readonly steps: number;
}

export function coroutineSession(
  agent: (io: AgentIo, first: Observation) => Promise<string>,
): AgentSession {
  let emit: ((d: PolicyDecision) => void) | undefined;
  let feed: ((o: Observation) => void) | undefined;
  let started = false;
  let steps = 0;
  const io: AgentIo = {
    act(action, note) {
      steps += 1;
      return new Promise<Observation>((resolve) => {
        feed = resolve;
        emit?.({ kind: 'act', action, ...(note ? { note } : {}) });
      });
    },
    get steps() {
      return steps;
    },
  };
  return {
    act(observation: Observation): Promise<PolicyDecision> {
      const decision = new Promise<PolicyDecision>((resolve) => {
        emit = resolve;
      });
      if (!started) {
        started = true;
        agent(io, observation).then(
          (reason) => emit?.({ kind: 'give_up', reason }),
          (error: unknown) => emit?.({ kind: 'give_up', reason: `agent error: ${String(error)}` }),
        );
      } else {
        feed?.(observation);
      }
      return decision;
    },
  };
}
