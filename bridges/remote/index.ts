// The remote bridge: any environment server speaking the protocol in README.md becomes a Bridge.
// createRemoteBridge({ url, name }) reads the server's /health and /schema once; episodes then talk
// to it over HTTP. Without a configured URL the registry's `remote` entry runs the bundled Python
// reference server (referenceRemoteBridge).
import { filterTasks, restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { RemoteClient } from './client.ts';
import { RemoteEnv } from './env.ts';
import { HealthReplyZ, SchemaReplyZ } from './protocol.ts';
import { type ReferenceServer, startReferenceServer } from './reference.ts';

export { RemoteClient, RemoteHttpError } from './client.ts';
export { RemoteEnv } from './env.ts';
export { PROTOCOL_VERSION } from './protocol.ts';
export { REFERENCE_SERVER, type ReferenceServer, startReferenceServer } from './reference.ts';

export interface RemoteBridgeOptions {
  /** Base URL of the environment server, e.g. http://127.0.0.1:8000. */
  url: string;
  /** Bridge name in the registry (and the envs' envType). */
  name: string;
  /** Per-request time limit (default 10 s; reset gets at least 30 s). */
  timeoutMs?: number;
}

export async function createRemoteBridge(options: RemoteBridgeOptions): Promise<Bridge> {
  const client = new RemoteClient(options);
  await client.request('GET', '/health', HealthReplyZ);
  const schema = await client.request('GET', '/schema', SchemaReplyZ);
  const taskIds = new Set(schema.tasks.map((t) => t.id));
  const tasks = schema.tasks.map((t) => structuredClone(t));
  const textTool = schema.textTool ?? undefined;
  const create = async () => new RemoteEnv(options.name, client, schema, taskIds);
  return {
    name: options.name,
    description:
      `Remote environment '${schema.name}' at ${client.url} (our own protocol, not OpenEnv)` +
      (schema.description ? `: ${schema.description}` : ''),
    splits: [...schema.splits],
    ...(textTool ? { textTool } : {}),
    async listTasks(filter?: TaskFilter) {
      return filterTasks(tasks, filter);
    },
    async getTask(taskId: string) {
      return tasks.find((t) => t.id === taskId);
    },
    tools: () => schema.tools,
    stateSchema: () => schema.stateSchema,
    origin: { protocol: 'remote', url: client.url },
    create,
    async fromState(snapshot: EnvSnapshot) {
      return restoredEnv(await create(), snapshot);
    },
  };
}

let reference: Promise<{ server: ReferenceServer; bridge: Bridge }> | undefined;

/**
 * The `remote` bridge when no URL is configured: the bundled reference server, started once per
 * thread on first use and stopped when the thread or process ends (it watches its stdin pipe).
 */
export async function referenceRemoteBridge(name = 'remote'): Promise<Bridge> {
  reference ??= (async () => {
    const server = await startReferenceServer();
    try {
      return { server, bridge: await createRemoteBridge({ url: server.url, name }) };
    } catch (error) {
      await server.close();
      throw error;
    }
  })();
  try {
    return (await reference).bridge;
  } catch (error) {
    reference = undefined;
    throw error;
  }
}
