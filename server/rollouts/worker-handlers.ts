// Handlers run inside IsolatedPool worker threads: one episode per job (environment, harness stack
// and hooks together in the thread); the whole result, trajectory included, goes back in one message
// so the host writes it in one batch.
import { runEpisode } from './episode.ts';
import type { EpisodeInput, EpisodeResult } from './types.ts';

export const handlers = {
  runEpisode: (input: unknown): Promise<EpisodeResult> => runEpisode(input as EpisodeInput),
};
