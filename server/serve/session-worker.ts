// Handlers of a served-session worker thread (engine.ts WorkerEngine): the harnessed environments of
// the sessions assigned to this thread, with their hooks. This module is the thread's composition
// root: its bridges come from the process's configuration (REMOTE_ENVS, OPENENV_ENVS).
import type { Action } from '../../bridges/core/types.ts';
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { type OpenInput, ServedEpisodes } from './episodes.ts';

const episodes = new ServedEpisodes(bridgesFromConfig(config()));

export const handlers = {
  reset: (input: unknown) => episodes.reset(input as OpenInput),
  step: (input: unknown) => {
    const i = input as { id: string; action: Action };
    return episodes.step(i.id, i.action);
  },
  evaluate: (input: unknown) => episodes.evaluate((input as { id: string }).id),
  state: async (input: unknown) => episodes.state((input as { id: string }).id),
  close: async (input: unknown) => {
    await episodes.close((input as { id: string }).id);
    return null;
  },
  open: async () => episodes.open,
};
