// Handlers for the CLI's IsolatedPool worker: one episode per worker, driven call by call. This
// module is the thread's composition root: its bridges come from the process's configuration.
import type { Json } from '../../bridges/core/types.ts';
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { InvalidInputError } from '../errors.ts';
import {
  Episode,
  type EpisodeEnd,
  type EpisodeStart,
  type OpenInput,
  type StepOutcome,
} from './episode.ts';
import type { ActionLine } from './spec-input.ts';

const bridges = bridgesFromConfig(config());
let current: Episode | undefined;

function episode(): Episode {
  if (!current) throw new InvalidInputError('no episode is open in this worker');
  return current;
}

export const handlers = {
  async open(input: unknown): Promise<EpisodeStart> {
    await current?.close();
    current = undefined;
    const opened = await Episode.open(input as OpenInput, bridges);
    current = opened.episode;
    return opened.start;
  },
  async step(input: unknown): Promise<StepOutcome> {
    const { entry, withState } = input as { entry: ActionLine; withState: boolean };
    return episode().step(entry, withState);
  },
  async state(): Promise<Json> {
    return episode().state();
  },
  async finish(): Promise<EpisodeEnd> {
    return episode().finish();
  },
  async close(): Promise<null> {
    await current?.close();
    current = undefined;
    return null;
  },
};
