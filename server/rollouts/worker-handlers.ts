// Handlers run inside IsolatedPool worker threads: one episode per job (environment, harness stack
// and hooks together in the thread); the whole result, trajectory included, goes back in one message
// so the host writes it in one batch. This module is the thread's composition root: its bridges come
// from the same configuration as the process's (REMOTE_ENVS).
import type { Bridge, BridgeResolver } from '../../bridges/core/types.ts';
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { runEpisode } from './episode.ts';
import type { EpisodeInput, EpisodeResult } from './types.ts';

/**
 * A bridge once loaded is kept for the thread's life: every lookup of a built-in bridge is a
 * dynamic import(), which under the tsx loader is a round trip to the loader's thread — a
 * measurable share of a short episode's CPU. A failed load (a remote server down) is not kept.
 */
export function keepLoaded(bridges: BridgeResolver): BridgeResolver {
  const loaded = new Map<string, Bridge>();
  return {
    names: () => bridges.names(),
    async get(name) {
      const known = loaded.get(name);
      if (known) return known;
      const bridge = await bridges.get(name);
      if (bridge) loaded.set(name, bridge);
      return bridge;
    },
  };
}

const bridges = keepLoaded(bridgesFromConfig(config()));

export const handlers = {
  runEpisode: (input: unknown): Promise<EpisodeResult> =>
    runEpisode(input as EpisodeInput, bridges),
};
