// Attaches the configured environment servers (REMOTE_ENVS) to the bridge registry. Bridges never
// read configuration, so every entry point that resolves bridges imports this module once: the
// engine (and with it every rollout worker thread), the API and the CLI.
import { configureBridges, type RemoteBridgeConfig } from '../bridges/index.ts';
import { config } from './config.ts';

export function remotesFromConfig(value: string | undefined): RemoteBridgeConfig[] {
  if (!value) return [];
  return value.split(',').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), url: pair.slice(at + 1).trim() };
  });
}

configureBridges({ remotes: remotesFromConfig(config().REMOTE_ENVS) });
