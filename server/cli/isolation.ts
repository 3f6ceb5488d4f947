// Where a command's episode runs: a worker of the engine's IsolatedPool by default, so hook code
// cannot hang the CLI; `--in-process` for debugging (and fast tests).
import type { ParseArgsConfig } from 'node:util';
import type { BridgeResolver } from '../../bridges/core/types.ts';
import { flag, type OptionValues } from './command.ts';
import { type EpisodeClient, InProcessEpisode, IsolatedEpisode } from './episode.ts';

export const isolationOptions = {
  'in-process': { type: 'boolean' },
} satisfies NonNullable<ParseArgsConfig['options']>;

export function episodeClient(values: OptionValues, bridges: BridgeResolver): EpisodeClient {
  return flag(values, 'in-process') ? new InProcessEpisode(bridges) : new IsolatedEpisode();
}
