// Handlers run inside IsolatedPool worker threads: one episode per job (environment, harness stack
// and hooks together in the thread); the whole result, trajectory included (encoded as the rows the
// host writes), goes back in one message so the host writes it in one batch. This module is the
// thread's composition root: its bridges come from the same configuration as the process's
// (REMOTE_ENVS).
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { keepLoaded } from './bridge-cache.ts';
import { runEpisode } from './episode.ts';
import { encodeSteps } from './step-rows.ts';
import type { EpisodeInput, EpisodeResult } from './types.ts';

const bridges = keepLoaded(bridgesFromConfig(config()));

export const handlers = {
  async runEpisode(input: unknown): Promise<EpisodeResult> {
    const { trajectory, ...result } = await runEpisode(input as EpisodeInput, bridges);
    // The steps cross as the rows the host writes: one string rather than objects to clone here,
    // decode there and encode again for the database (step-rows.ts).
    return { ...result, trajectory: [], encodedSteps: encodeSteps(trajectory) };
  },
};
