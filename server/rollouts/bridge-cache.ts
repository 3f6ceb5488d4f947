// Episodes resolve their bridge by name every time; a built-in bridge's loader is a dynamic
// import(), which under the tsx loader is a round trip to the loader's thread — a measurable share
// of a short episode's CPU. The episode executors (pool threads, inline workers) keep what loaded.
import type { Bridge, BridgeResolver } from '../../bridges/core/types.ts';

/** A resolver that keeps each bridge once loaded; a failed load (a remote server down) is not kept. */
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
