// The rollout engine's public surface: runs, their episodes and steps, metrics and the live event
// stream, behind one Rollouts service and its ports.
export {
  type EpisodeExecutor,
  PASS_THROUGH_OPTIONS,
  type PolicyOptions,
  type PolicyOptionsResolver,
  type ResolvedRunOptions,
  type RolloutEngine,
} from './engine.ts';
export { runEpisode, runEpisodeWith } from './episode.ts';
export {
  RUN_EVENT_TYPES,
  type RunEventRecord,
  RunEvents,
  type RunEventType,
  type SubscribeOptions,
} from './events.ts';
export { computeMetrics, type RunMetrics, wilsonInterval } from './metrics.ts';
export { costAwareReward, lambdaDiv } from './reward.ts';
export {
  type EpisodeFilter,
  type EpisodeInfo,
  type LaunchRunInput,
  LaunchRunInputSchema,
  type RolloutDeps,
  Rollouts,
  type RunInfo,
  type RunSummary,
} from './service.ts';
export * from './types.ts';
