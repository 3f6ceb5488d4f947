// Attaches the configured environment servers (REMOTE_ENVS) to the bridge registry. Bridges never
// read configuration, so every entry point that resolves bridges imports this module once: the API,
// the CLI and the rollout workers. The harness engine imports no registry: callers hand it
// `configuredBridges()`.
import type { BridgeResolver } from '../bridges/core/types.ts';
import { configureBridges, type RemoteBridgeConfig, registryBridges } from '../bridges/index.ts';
import { config } from './config.ts';

export function remotesFromConfig(value: string | undefined): RemoteBridgeConfig[] {
  if (!value) return [];
  return value.split(',').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), url: pair.slice(at + 1).trim() };
  });
}

configureBridges({ remotes: remotesFromConfig(config().REMOTE_ENVS) });

/** The bridge registry with the configured environment servers: what the engine resolves through. */
export function configuredBridges(): BridgeResolver {
  return registryBridges;
}
