// The bridge registry: every benchmark bridge the product knows, by name.
import type { Bridge } from './core/types.ts';

const registry = new Map<string, () => Promise<Bridge>>([
  ['toy24', async () => (await import('./toy24/index.ts')).toy24Bridge],
  ['household', async () => (await import('./household/index.ts')).householdBridge],
]);

export function bridgeNames(): string[] {
  return [...registry.keys()];
}

export async function getBridge(name: string): Promise<Bridge | undefined> {
  const load = registry.get(name);
  return load ? load() : undefined;
}

export async function listBridges(): Promise<Bridge[]> {
  return Promise.all([...registry.values()].map((load) => load()));
}
