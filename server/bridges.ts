// The bridges of a configured product: the built-in ones plus the environment servers named in
// REMOTE_ENVS. Bridges never read configuration; the composition root (server/compose.ts) and the
// worker threads' handler modules build their registry here and hand it on.
import {
  type BridgeRegistry,
  createBridgeRegistry,
  type RemoteBridgeConfig,
} from '../bridges/index.ts';
import type { Config } from './config.ts';

export function remotesFromConfig(value: string | undefined): RemoteBridgeConfig[] {
  if (!value) return [];
  return value.split(',').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), url: pair.slice(at + 1).trim() };
  });
}

export function bridgesFromConfig(
  c: Pick<Config, 'REMOTE_ENVS'> & Partial<Pick<Config, 'CHROMIUM_PATH' | 'FIXTURE_BRIDGES'>>,
): BridgeRegistry {
  return createBridgeRegistry({
    remotes: remotesFromConfig(c.REMOTE_ENVS),
    settings: c.CHROMIUM_PATH ? { chromiumPath: c.CHROMIUM_PATH } : {},
    ...(c.FIXTURE_BRIDGES ? { fixtures: true } : {}),
  });
}
