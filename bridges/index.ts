// The bridge registry: every benchmark bridge the product knows, by name.
import type { Bridge, BridgeResolver } from './core/types.ts';

/** Loads a bridge (lazily: heavy bridges import their code, remote ones read the server's schema). */
export type BridgeLoader = () => Promise<Bridge>;

const registry = new Map<string, BridgeLoader>([
  ['toy24', async () => (await import('./toy24/index.ts')).toy24Bridge],
  ['household', async () => (await import('./household/index.ts')).householdBridge],
  // Without configureBridges({ remotes }) naming `remote`, this is the bundled Python reference server.
  ['remote', async () => (await import('./remote/index.ts')).referenceRemoteBridge()],
  ['code-repair', async () => (await import('./code-repair/index.ts')).codeRepairBridge],
  ['spreadsheet', async () => (await import('./spreadsheet/index.ts')).spreadsheetBridge],
  ['webshop', async () => (await import('./webshop/index.ts')).webshopBridge],
]);

export function bridgeNames(): string[] {
  return [...registry.keys()];
}

export async function getBridge(name: string): Promise<Bridge | undefined> {
  const load = registry.get(name);
  return load ? load() : undefined;
}

/** The registry as a resolver (server/bridges.ts hands it, configured, to the harness engine). */
export const registryBridges: BridgeResolver = { get: getBridge, names: bridgeNames };

/** Every bridge that loads; one that cannot (a remote server down) is left out, not fatal. */
export async function listBridges(): Promise<Bridge[]> {
  const settled = await Promise.allSettled([...registry.values()].map((load) => load()));
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
}

/** Adds (or replaces) a bridge. Bridges never read configuration; server code calls this. */
export function registerBridge(name: string, load: BridgeLoader): void {
  registry.set(name, load);
}

export interface RemoteBridgeConfig {
  name: string;
  url: string;
  timeoutMs?: number;
}

/**
 * Registers environment servers (bridges/remote/README.md) as bridges. Call it in every process and
 * worker thread that resolves bridges (e.g. from a module the server, CLI and rollout workers all
 * import), with values from server/config.ts. A remote named `remote` replaces the reference server.
 */
export function configureBridges(o: { remotes?: RemoteBridgeConfig[] }): void {
  for (const remote of o.remotes ?? []) {
    let loaded: Promise<Bridge> | undefined;
    registerBridge(remote.name, async () => {
      loaded ??= import('./remote/index.ts').then((m) => m.createRemoteBridge(remote));
      try {
        return await loaded;
      } catch (error) {
        // A server that was down may come back: the next lookup tries again.
        loaded = undefined;
        throw error;
      }
    });
  }
}
