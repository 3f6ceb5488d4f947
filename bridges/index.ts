// The bridge registry: every benchmark bridge the product knows, by name. A registry is a value
// (createBridgeRegistry): the server's composition root builds one with the configured environment
// servers attached and hands it to whatever resolves bridges; nothing here is mutable module state.
import type { Bridge, BridgeResolver } from './core/types.ts';

/** Loads a bridge (lazily: heavy bridges import their code, remote ones read the server's schema). */
export type BridgeLoader = () => Promise<Bridge>;

/** Settings of the built-in bridges' runtimes (the server reads them from its configuration). */
export interface BuiltInSettings {
  /** The Chromium the webshop and webarena bridges drive (Debian's /usr/bin/chromium by default). */
  chromiumPath?: string;
  /**
   * An OpenAI-compatible endpoint for WebArena's fuzzy_match judge; without one, answers that only
   * an LLM could grade are counted as not scorable.
   */
  llmJudge?: { baseUrl: string; apiKey?: string; model: string };
}

function builtIns(settings: BuiltInSettings): ReadonlyMap<string, BridgeLoader> {
  return new Map<string, BridgeLoader>([
    ...BUILT_IN,
    [
      'webshop',
      async () => {
        const m = await import('./webshop/index.ts');
        if (settings.chromiumPath) m.configureWebshop({ executablePath: settings.chromiumPath });
        return m.webshopBridge;
      },
    ],
    [
      'webarena',
      async () => {
        const m = await import('./webarena/index.ts');
        if (settings.chromiumPath)
          (await import('./webshop/index.ts')).configureWebshop({
            executablePath: settings.chromiumPath,
          });
        if (settings.llmJudge)
          m.configureWebarena({ fuzzyJudge: m.openAiFuzzyJudge(settings.llmJudge) });
        return m.webarenaBridge;
      },
    ],
  ]);
}

const BUILT_IN: ReadonlyMap<string, BridgeLoader> = new Map<string, BridgeLoader>([
  ['toy24', async () => (await import('./toy24/index.ts')).toy24Bridge],
  ['household', async () => (await import('./household/index.ts')).householdBridge],
  // Unless a remote named `remote` is attached, this is the bundled Python reference server.
  ['remote', async () => (await import('./remote/index.ts')).referenceRemoteBridge()],
  ['code-repair', async () => (await import('./code-repair/index.ts')).codeRepairBridge],
  ['spreadsheet', async () => (await import('./spreadsheet/index.ts')).spreadsheetBridge],
  ['webshop', async () => (await import('./webshop/index.ts')).webshopBridge],
  ['webarena', async () => (await import('./webarena/index.ts')).webarenaBridge],
  ['officeqa', async () => (await import('./officeqa/index.ts')).officeqaBridge],
]);

export interface RemoteBridgeConfig {
  name: string;
  url: string;
  timeoutMs?: number;
}

/** An OpenEnv server attached as a bridge (bridges/openenv/README.md). */
export interface OpenEnvBridgeConfig {
  name: string;
  url: string;
  timeoutMs?: number;
  /** A JSON file of task id → reset kwargs; without one, the single task `default`. */
  tasksFile?: string;
  /** The observation field shown as the text. */
  observationField?: string;
  success?: 'final-reward' | 'reward-sum';
}

export interface BridgeRegistry extends BridgeResolver {
  /** Every bridge that loads; one that cannot (a remote server down) is left out, not fatal. */
  list(): Promise<Bridge[]>;
}

/** A remote environment server (bridges/remote/README.md) as a bridge loader. */
function remoteLoader(remote: RemoteBridgeConfig): BridgeLoader {
  let loaded: Promise<Bridge> | undefined;
  return async () => {
    loaded ??= import('./remote/index.ts').then((m) => m.createRemoteBridge(remote));
    try {
      return await loaded;
    } catch (error) {
      // A server that was down may come back: the next lookup tries again.
      loaded = undefined;
      throw error;
    }
  };
}

/** How long a failed attach is answered from memory before the server is asked again. */
const OPENENV_RETRY_MS = 15_000;

/**
 * An OpenEnv server as a bridge loader (attached on first use). A server that was down is asked
 * again after OPENENV_RETRY_MS: until then its failure is repeated at once, so a host that drops
 * packets does not hold every bridge list up for a whole request timeout.
 */
function openenvLoader(server: OpenEnvBridgeConfig): BridgeLoader {
  let loaded: Promise<Bridge> | undefined;
  let failed: { at: number; error: unknown } | undefined;
  return async () => {
    if (failed && Date.now() - failed.at < OPENENV_RETRY_MS) throw failed.error;
    loaded ??= import('./openenv/index.ts').then((m) => m.createOpenEnvBridge(server));
    try {
      const bridge = await loaded;
      failed = undefined;
      return bridge;
    } catch (error) {
      loaded = undefined;
      failed = { at: Date.now(), error };
      throw error;
    }
  };
}

/**
 * The built-in bridges plus the given environment servers (a remote named `remote` replaces the
 * reference server). `loaders` replaces the built-ins (tests).
 */
export function createBridgeRegistry(
  o: {
    remotes?: RemoteBridgeConfig[];
    openenvs?: OpenEnvBridgeConfig[];
    loaders?: ReadonlyMap<string, BridgeLoader>;
    settings?: BuiltInSettings;
    /** Told about each bridge list() leaves out (an environment server that is down), with why. */
    onUnavailable?: (name: string, error: unknown) => void;
    /** Adds the verifier fixtures (fixtures/lockbox.ts: a sound and a broken verifier), for tests. */
    fixtures?: boolean;
  } = {},
): BridgeRegistry {
  const loaders = new Map(o.loaders ?? builtIns(o.settings ?? {}));
  if (o.fixtures) {
    for (const flavour of ['sound', 'lax'] as const) {
      const name = flavour === 'sound' ? 'lockbox' : `lockbox-${flavour}`;
      loaders.set(name, async () => (await import('./fixtures/lockbox.ts')).lockboxBridge(flavour));
    }
  }
  for (const remote of o.remotes ?? []) loaders.set(remote.name, remoteLoader(remote));
  for (const server of o.openenvs ?? []) loaders.set(server.name, openenvLoader(server));
  return {
    names: () => [...loaders.keys()],
    get: async (name) => loaders.get(name)?.(),
    async list() {
      const entries = [...loaders.entries()];
      const settled = await Promise.allSettled(entries.map(([, load]) => load()));
      return settled.flatMap((s, i) => {
        if (s.status === 'fulfilled') return [s.value];
        o.onUnavailable?.(entries[i]![0], s.reason);
        return [];
      });
    },
  };
}

/** The built-in bridges, no environment server attached (bridge tests, tools). */
export const builtInBridges: BridgeRegistry = createBridgeRegistry();

export function bridgeNames(): string[] {
  return builtInBridges.names();
}

export function getBridge(name: string): Promise<Bridge | undefined> {
  return builtInBridges.get(name);
}
