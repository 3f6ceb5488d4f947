// Hand-written household-style episodes for the diagnosis tests: a trajectory is a list of
// (typed command, shown text) pairs; "Nothing happens." marks the step invalid, as the bridge does.
import type { StepRecord } from '../../harness/types.ts';
import { batchStats } from '../stats.ts';
import type { Batch, ObservedEpisode } from '../types.ts';

export type Turn = [command: string, shown: string];

export function step(index: number, command: string, text: string): StepRecord {
  const action = { name: 'act', args: { command } };
  const observation = { text };
  const invalid = text === 'Nothing happens.';
  return {
    index,
    action,
    executedAction: action,
    rawObservation: observation,
    observation,
    reward: 0,
    terminated: false,
    truncated: false,
    info: { invalid },
    invalid,
    changes: [],
  };
}

export function episode(
  id: string,
  turns: Turn[],
  outcome: ObservedEpisode['outcome'] = 'failure',
  category = 'step_budget_exhausted',
): ObservedEpisode {
  return {
    episodeId: id,
    seed: 0,
    outcome,
    failureCategory: outcome === 'failure' ? category : null,
    errorMessage: null,
    steps: turns.length,
    trajectory: turns.map(([c, o], j) => step(j, c, o)),
  };
}

export function batch(
  trajectories: Turn[][],
  outcome: ObservedEpisode['outcome'] = 'failure',
  category = 'step_budget_exhausted',
): Batch {
  const episodes = trajectories.map((t, i) => ({
    ...episode(`ep${i}`, t, outcome, category),
    seed: i,
  }));
  return { runId: 'r', seeds: episodes.map((e) => e.seed), episodes, stats: batchStats(episodes) };
}
