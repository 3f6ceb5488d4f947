// createBridgeRegistry({ remotes }): named remotes join a registry; one that is down neither
// breaks list() nor stays broken once it comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeRegistry } from '../index.ts';
import { type ReferenceServer, startReferenceServer } from './index.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

describe('remote bridges in the registry', () => {
  it('registers named remotes from configuration', async () => {
    const registry = createBridgeRegistry({
      remotes: [{ name: 'my-env', url: server.url, timeoutMs: 5_000 }],
    });
    expect(registry.names()).toContain('my-env');
    expect(registry.names()).toContain('household');
    const bridge = await registry.get('my-env');
    expect(bridge?.name).toBe('my-env');
    expect((await bridge!.listTasks()).length).toBeGreaterThan(0);
  });

  it('a remote that is down is left out of list(), and get() says why', async () => {
    // Keep the list cheap: no built-in bridge, only the two remotes.
    const registry = createBridgeRegistry({
      loaders: new Map(),
      remotes: [
        { name: 'my-env', url: server.url, timeoutMs: 5_000 },
        { name: 'down-env', url: 'http://127.0.0.1:9', timeoutMs: 1_000 },
      ],
    });
    const names = (await registry.list()).map((b) => b.name);
    expect(names).toContain('my-env');
    expect(names).not.toContain('down-env');
    await expect(registry.get('down-env')).rejects.toThrow(
      /remote env 'down-env' .*cannot reach the server/,
    );
  });
});
