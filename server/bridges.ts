// The bridges of a configured product: the built-in ones plus the environment servers named in
// REMOTE_ENVS. Bridges never read configuration; the composition root (server/compose.ts) and the
// worker threads' handler modules build their registry here and hand it on.
import {
  type BridgeRegistry,
  createBridgeRegistry,
  type OpenEnvBridgeConfig,
  type RemoteBridgeConfig,
} from '../bridges/index.ts';
import type { Config } from './config.ts';
import { InvalidInputError } from './errors.ts';

export function remotesFromConfig(value: string | undefined): RemoteBridgeConfig[] {
  if (!value) return [];
  return value.split(',').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), url: pair.slice(at + 1).trim() };
  });
}

const OPENENV_OPTIONS = ['tasks', 'observation', 'success'] as const;

/**
 * OPENENV_ENVS: `name=url[;tasks=FILE][;observation=FIELD][;success=final-reward|reward-sum]`,
 * comma-separated (bridges/openenv/README.md).
 */
export function openenvsFromConfig(value: string | undefined): OpenEnvBridgeConfig[] {
  if (!value) return [];
  return value.split(',').map((entry) => {
    const [head = '', ...options] = entry.split(';');
    const at = head.indexOf('=');
    const server: OpenEnvBridgeConfig = {
      name: head.slice(0, at).trim(),
      url: head.slice(at + 1).trim(),
    };
    for (const option of options) {
      const eq = option.indexOf('=');
      const key = option.slice(0, eq).trim();
      const v = option.slice(eq + 1).trim();
      if (key === 'tasks') server.tasksFile = v;
      else if (key === 'observation') server.observationField = v;
      else if (key === 'success') {
        if (v !== 'final-reward' && v !== 'reward-sum')
          throw new InvalidInputError(
            `OPENENV_ENVS: ${server.name}: success must be final-reward or reward-sum, got '${v}'`,
          );
        server.success = v;
      } else
        throw new InvalidInputError(
          `OPENENV_ENVS: ${server.name}: unknown option '${key}' (known: ${OPENENV_OPTIONS.join(', ')})`,
        );
    }
    return server;
  });
}

/** Says once per server and reason that an environment server is left out of the bridge list. */
export function warnLeftOut(log: (line: string) => void = console.warn) {
  const said = new Set<string>();
  return (name: string, error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    const key = `${name}\u0000${why}`;
    if (said.has(key)) return;
    said.add(key);
    log(`bridge ${name} is left out of the bridge list: ${why}`);
  };
}

export function bridgesFromConfig(
  c: Pick<Config, 'REMOTE_ENVS'> &
    Partial<
      Pick<
        Config,
        | 'CHROMIUM_PATH'
        | 'OPENENV_ENVS'
        | 'OPENAI_BASE_URL'
        | 'OPENAI_API_KEY'
        | 'OPENAI_MODEL'
        | 'FIXTURE_BRIDGES'
      >
    >,
  o: { onUnavailable?: (name: string, error: unknown) => void } = {},
): BridgeRegistry {
  return createBridgeRegistry({
    ...(o.onUnavailable ? { onUnavailable: o.onUnavailable } : {}),
    remotes: remotesFromConfig(c.REMOTE_ENVS),
    openenvs: openenvsFromConfig(c.OPENENV_ENVS),
    settings: {
      ...(c.CHROMIUM_PATH ? { chromiumPath: c.CHROMIUM_PATH } : {}),
      // WebArena's fuzzy_match judge: the configured LLM endpoint, when there is one.
      ...(c.OPENAI_BASE_URL && c.OPENAI_MODEL
        ? {
            llmJudge: {
              baseUrl: c.OPENAI_BASE_URL,
              model: c.OPENAI_MODEL,
              ...(c.OPENAI_API_KEY ? { apiKey: c.OPENAI_API_KEY } : {}),
            },
          }
        : {}),
    },
    ...(c.FIXTURE_BRIDGES ? { fixtures: true } : {}),
  });
}
