// A step as the Step table stores it, and a trajectory encoded as those rows' JSON. The worker
// thread that played an episode encodes its trajectory (worker-handlers.ts), so the host writes the
// ~20 KB of a household episode's steps as the string it received, instead of decoding them from
// the thread's message into objects only to encode them again (0.19 ms of the host's main thread
// per episode, measured; the thread's encoding costs about what cloning the objects did).
import type { Json } from '../../bridges/core/types.ts';
import type { StepRecord } from '../harness/types.ts';

/** A step's columns but the episode's id and attempt, which the batch gives (recorder-sql.ts). */
export function stepColumns(s: StepRecord) {
  return {
    index: s.index,
    action: s.action as unknown as Json,
    executedAction: (s.executedAction as unknown as Json) ?? null,
    rawObservation: s.rawObservation?.text ?? null,
    rawObservationData: s.rawObservation?.data ?? null,
    observation: s.observation.text,
    observationData: s.observation.data ?? null,
    reward: s.reward,
    terminated: s.terminated,
    truncated: s.truncated,
    invalid: s.invalid,
    blocked: s.blocked ?? null,
    changes: s.changes as unknown as Json,
    info: s.info,
    leg: s.leg ?? null,
    state: s.state ?? null,
    meta: s.meta ?? null,
    llm: (s.llm as unknown as Json) ?? null,
  };
}

/** A step's row in the Step table. */
export function stepRow(episodeId: string, attempt: number, s: StepRecord) {
  return { episodeId, attempt, ...stepColumns(s) };
}

/** A trajectory as the JSON array of its steps' columns (EpisodeResult.encodedSteps). */
export function encodeSteps(trajectory: StepRecord[]): string {
  return JSON.stringify(trajectory.map(stepColumns));
}
