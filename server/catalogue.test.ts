// A bridge whose runtime is missing (webshop and webarena without Chromium) is listed as unavailable, with why
// and the one command that fixes it; every other bridge lists and runs as usual.
import { afterAll, describe, expect, it } from 'vitest';
import { configureWebshop, shutdownWebshopRuntime } from '../bridges/webshop/index.ts';
import { bridgesFromConfig } from './bridges.ts';
import { Catalogue } from './catalogue.ts';

const MISSING = '/nonexistent/chromium-for-this-test';
const registry = bridgesFromConfig({ REMOTE_ENVS: undefined, CHROMIUM_PATH: MISSING });
const catalogue = new Catalogue(registry);

afterAll(async () => {
  await shutdownWebshopRuntime();
  configureWebshop({ executablePath: '/usr/bin/chromium' });
});

describe('bridge availability', () => {
  it('marks the two browser bridges unavailable with the fix when Chromium is missing, and only them', async () => {
    const bridges = await catalogue.bridges();
    const browser = ['webshop', 'webarena'];
    const webshop = bridges.find((b) => b.name === 'webshop');
    for (const name of browser)
      expect(bridges.find((b) => b.name === name)?.availability, name).toEqual({
        available: false,
        reason: `Chromium is not installed (no browser at ${MISSING})`,
        fix: 'apt-get install -y chromium',
      });
    for (const b of bridges.filter((x) => !browser.includes(x.name))) {
      expect(b.availability, b.name).toEqual({ available: true });
    }
    const { available: _, ...why } = webshop?.availability ?? { available: true };
    expect(await catalogue.unavailable()).toEqual(browser.map((name) => ({ name, ...why })));
    const first = (await catalogue.tasks({ bridge: 'webshop', limit: 1 })).items[0];
    const detail = await catalogue.task('webshop', first?.id ?? '');
    expect(detail.bridge.availability.available).toBe(false);
  });

  it('keeps every other bridge working', async () => {
    const toy = await catalogue.tasks({ bridge: 'toy24', limit: 5 });
    expect(toy.items).toHaveLength(5);
    const env = await (await registry.get('toy24'))!.create();
    await expect(env.reset({ taskId: toy.items[0]!.id, seed: 0 })).resolves.toBeDefined();
    await env.close();
  });

  it('a webshop episode fails at once with the fix, not deep inside Playwright', async () => {
    const bridge = (await registry.get('webshop'))!;
    const task = (await bridge.listTasks())[0]!;
    const env = await bridge.create();
    await expect(env.reset({ taskId: task.id, seed: 0 })).rejects.toThrow(
      /Chromium is not installed .*install it with: apt-get install -y chromium/,
    );
    await env.close();
  });
});
