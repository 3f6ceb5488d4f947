// Bridge capabilities with their defaults (types.ts `Bridge`): generic code calls these, never a
// benchmark's id conventions, so a new bridge needs no edit outside its own folder.
import type { Bridge, BridgeAvailability, BridgeResolver } from './types.ts';

type Capable = Pick<Bridge, 'pinTask' | 'displayTaskId'> | undefined;

/** Whether the bridge can run here; a bridge that does not say is available. */
export function availabilityOf(bridge: Pick<Bridge, 'availability'>): BridgeAvailability {
  return bridge.availability ? bridge.availability() : { available: true };
}

/** The task id pinned to start state `variant`, or the id unchanged for a bridge that cannot pin. */
export function pinTask(bridge: Capable, taskId: string, variant: number): string {
  return bridge?.pinTask ? bridge.pinTask(taskId, variant) : taskId;
}

/** The task id as people read it (a pinned id shown as its benchmark task), or the id itself. */
export function displayTaskId(bridge: Capable, taskId: string): string {
  return bridge?.displayTaskId ? bridge.displayTaskId(taskId) : taskId;
}

/** A resolver over a fixed set of bridges (tests, fakes, a CLI given its bridges explicitly). */
export function resolverOf(bridges: Iterable<Bridge>): BridgeResolver {
  const byName = new Map<string, Bridge>();
  for (const bridge of bridges) byName.set(bridge.name, bridge);
  return {
    get: async (name) => byName.get(name),
    names: () => [...byName.keys()],
  };
}
