// configureBridges / registerBridge: named remotes join the registry; one that is down neither
// breaks listBridges nor stays broken once it comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeNames, configureBridges, getBridge, listBridges, registerBridge } from '../index.ts';
import { type ReferenceServer, startReferenceServer } from './index.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

describe('remote bridges in the registry', () => {
  it('registers named remotes from configuration', async () => {
    configureBridges({ remotes: [{ name: 'my-env', url: server.url, timeoutMs: 5_000 }] });
    expect(bridgeNames()).toContain('my-env');
    const bridge = await getBridge('my-env');
    expect(bridge?.name).toBe('my-env');
    expect((await bridge!.listTasks()).length).toBeGreaterThan(0);
  });

  it('a remote that is down is left out of listBridges, and getBridge says why', async () => {
    configureBridges({
      remotes: [{ name: 'down-env', url: 'http://127.0.0.1:9', timeoutMs: 1_000 }],
    });
    // Keep the list cheap: only the two remotes are loaded here.
    for (const name of bridgeNames())
      if (!['my-env', 'down-env'].includes(name))
        registerBridge(name, async () => (await getBridge('my-env'))!);
    const names = (await listBridges()).map((b) => b.name);
    expect(names).toContain('my-env');
    expect(names).not.toContain('down-env');
    await expect(getBridge('down-env')).rejects.toThrow(
      /remote env 'down-env' .*cannot reach the server/,
    );
  });
});
