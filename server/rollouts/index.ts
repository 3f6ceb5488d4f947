// The rollout engine's public surface (agreed in the team brief): runs, their episodes and steps,
// metrics and the live event stream.
export { setRolloutDb } from './db.ts';
export { type EpisodeExecutor, type RolloutEngine, setRolloutEngine } from './engine.ts';
export { runEpisode, runEpisodeWith } from './episode.ts';
export {
  closeEventBus,
  listRunEvents,
  RUN_EVENT_TYPES,
  type RunEventRecord,
  type RunEventType,
  type SubscribeOptions,
  subscribeRun,
} from './events.ts';
export { computeMetrics, type RunMetrics, wilsonInterval } from './metrics.ts';
export { costAwareReward, lambdaDiv } from './reward.ts';
export {
  cancelRun,
  closeRollouts,
  type EpisodeFilter,
  type EpisodeInfo,
  exportRun,
  getEpisode,
  getRunSummary,
  getSteps,
  type LaunchRunInput,
  LaunchRunInputSchema,
  launchRun,
  listEpisodes,
  listRuns,
  type RunInfo,
  type RunSummary,
  resumeUnfinishedRuns,
  waitForRun,
} from './service.ts';
export * from './types.ts';
