// The webshop environment through a real Chromium: an episode end to end, replay from a snapshot,
// per-step cost, crash handling and process lifecycle. One browser for the file; few episodes.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EnvInfraError } from '../core/types.ts';
import { WebShopEnv, type WebshopState } from './env.ts';
import {
  allTasks,
  BROWSER_MARKER,
  configureWebshop,
  findProduct,
  livePages,
  runtimeStats,
  shutdownWebshopRuntime,
  webshopBridge,
} from './index.ts';

vi.setConfig({ testTimeout: 120_000 });

const act = (command: string) => ({ name: 'act', args: { command } });

function browserPids(): number[] {
  try {
    return execFileSync('pgrep', ['-f', BROWSER_MARKER.replace(/^--/, '')], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

// A task with two options and two attributes, whose goal product is bought in the walkthrough.
const task = allTasks().find(
  (t) => Object.keys(t.goal.options).length === 2 && t.goal.attributes.length === 2,
)!;
const product = findProduct(task.goal.asin)!;

beforeAll(() => {
  configureWebshop({ idleMs: 60_000 });
});

afterAll(async () => {
  await shutdownWebshopRuntime();
});

describe('webshop episode through Chromium', () => {
  it('searches, browses, chooses options, buys, and is scored with the WebShop reward', async () => {
    const env = await webshopBridge.create();
    try {
      const reset = await env.reset({ taskId: task.info.id, seed: 0 });
      expect(reset.observation.text).toBe(
        `WebShop [SEP] Instruction: [SEP] ${task.goal.instruction} [SEP] Search`,
      );
      expect(reset.info.availableActions).toEqual({ has_search_bar: true, clickables: ['search'] });

      const results = await env.step(act(`search[${product.title}]`));
      expect(results.observation.text).toMatch(
        /Back to Search \[SEP\] Page 1 \(Total results: \d+\)/,
      );
      expect(results.info.admissibleCommands).toContain(`click[${product.asin.toLowerCase()}]`);
      const afterSearch = env.getEnvState() as WebshopState;
      expect(afterSearch).toMatchObject({ page: 'results', query: product.title, steps: 1 });

      const item = await env.step(act(`click[${product.asin.toLowerCase()}]`));
      expect(item.observation.text).toContain(
        `${product.title} [SEP] Price: $${product.price.toFixed(2)}`,
      );
      const wrong = await env.step(act('click[does not exist]'));
      expect(wrong.info.invalid).toBe(true);
      expect(wrong.observation.text).toMatch(/^Invalid action: 'does not exist' is not clickable/);
      const noBar = await env.step(act('search[anything]'));
      expect(noBar.observation.text).toContain('There is no search bar on this page');
      const garbled = await env.step(act('buy it now please'));
      expect(garbled.info.invalid).toBe(true);

      for (const value of Object.values(task.goal.options)) await env.step(act(`click[${value}]`));
      const features = await env.step({ name: 'click', args: { element: 'Features' } });
      for (const a of task.goal.attributes)
        expect(features.observation.text.toLowerCase()).toContain(a);
      await env.step(act('click[< prev]'));
      const before = env.getEnvState() as WebshopState;
      expect(before).toMatchObject({
        page: 'item',
        asin: product.asin,
        selectedOptions: task.goal.options,
        invalidActions: 3,
        visited: [product.asin],
      });

      const bought = await env.step(act('click[buy now]'));
      expect(bought.terminated).toBe(true);
      expect(bought.reward).toBe(1);
      expect(bought.observation.text).toContain('Your score (min 0.0, max 1.0): 1.000');
      expect(await env.evaluate()).toMatchObject({ success: true, score: 1 });
      expect((env.getEnvState() as WebshopState).purchased).toEqual({
        asin: product.asin,
        options: task.goal.options,
        price: product.price,
      });
      const after = await env.step(act('click[back to search]'));
      expect(after).toMatchObject({ terminated: true, reward: 0, info: { invalid: true } });
    } finally {
      await env.close();
    }
  });

  it('buying without the options scores (|att| + 1) / (|att| + |opt| + 1)', async () => {
    const env = await webshopBridge.create();
    try {
      await env.reset({ taskId: task.info.id, seed: 0, options: { observation: 'text' } });
      expect(env.observe().text).toBe(
        `WebShop\nInstruction:\n${task.goal.instruction}\n[button] Search [button_]`,
      );
      await env.step({ name: 'search', args: { query: product.title } });
      await env.step({ name: 'click', args: { element: product.asin } });
      const [value] = Object.values(task.goal.options);
      const chosen = await env.step(act(`click[${value}]`));
      expect(chosen.observation.text).toContain(`[clicked button] ${value} [clicked button_]`);
      const end = await env.step(act('click[buy now]'));
      expect(end.reward).toBeCloseTo(4 / 5, 6);
      expect((await env.evaluate()).metrics).toMatchObject({ r_option: 0.5, r_att: 1, r_type: 1 });
    } finally {
      await env.close();
    }
  });

  it('restores a snapshot by replaying it: same page, same state, same next step', async () => {
    const env = await webshopBridge.create();
    const actions = [
      act(`search[${task.goal.query} ${task.goal.attributes.join(' ')}]`),
      act('click[next >]'),
      act('click[< prev]'),
      act('click[nothing here]'),
    ];
    try {
      await env.reset({ taskId: task.info.id, seed: 3 });
      for (const a of actions) await env.step(a);
      const snapshot = JSON.parse(JSON.stringify(await env.saveState()));
      expect(snapshot.actions).toHaveLength(4);
      expect(snapshot.state.view).toEqual(env.getEnvState());
      const restored = await webshopBridge.fromState(snapshot);
      const replayed = new WebShopEnv();
      try {
        expect(restored.getEnvState()).toEqual(env.getEnvState());
        expect(restored.observe()).toEqual(env.observe());
        // Without the saved page the actions are replayed: the same place, reached the long way.
        await replayed.restore(snapshot, { replay: true });
        expect(replayed.getEnvState()).toEqual(env.getEnvState());
        expect(replayed.observe()).toEqual(env.observe());
        const { state: _dropped, ...bare } = snapshot;
        const fromBare = await webshopBridge.fromState(bare);
        expect(fromBare.getEnvState()).toEqual(env.getEnvState());
        await fromBare.close();
        const next = (env.getEnvState() as WebshopState).clickables.find((c) => /^b0/.test(c))!;
        expect(await restored.step(act(`click[${next}]`))).toEqual(
          await env.step(act(`click[${next}]`)),
        );
      } finally {
        await restored.close();
        await replayed.close();
      }
    } finally {
      await env.close();
    }
  });

  it('costs tens of milliseconds per step (measured, logged)', async () => {
    const env = await webshopBridge.create();
    try {
      await env.reset({ taskId: task.info.id, seed: 0 });
      await env.step(act(`search[${product.title}]`));
      await env.step(act(`click[${product.asin}]`));
      const n = 20;
      const t0 = performance.now();
      for (let i = 0; i < n; i++)
        await env.step(act(i % 2 === 0 ? 'click[description]' : 'click[< prev]'));
      const perStep = (performance.now() - t0) / n;
      console.info(`webshop: ${perStep.toFixed(1)} ms per step (click + load + read, raw)`);
      expect(perStep).toBeLessThan(2000);
    } finally {
      await env.close();
    }
  });
});

describe('webshop runtime lifecycle', () => {
  it('a killed browser is an infra error, the context is released, and the next episode relaunches', async () => {
    const env = await webshopBridge.create();
    await env.reset({ taskId: task.info.id, seed: 0 });
    const launches = runtimeStats().launches;
    const pids = browserPids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await expect(env.step(act(`search[${task.goal.query}]`))).rejects.toBeInstanceOf(EnvInfraError);
    await expect(env.step(act('click[search]'))).rejects.toBeInstanceOf(EnvInfraError);
    await env.close();
    expect(runtimeStats().activeContexts).toBe(0);
    const fresh = await webshopBridge.create();
    try {
      const r = await fresh.reset({ taskId: task.info.id, seed: 0 });
      expect(r.observation.text).toContain(task.goal.instruction);
      expect(runtimeStats().launches).toBe(launches + 1);
    } finally {
      await fresh.close();
    }
  });

  it('a crashed page is an infra error naming the crash; the browser lives on', async () => {
    const env = await webshopBridge.create();
    try {
      await env.reset({ taskId: task.info.id, seed: 0 });
      expect(livePages()).toHaveLength(1);
      await livePages()[0]!
        .goto('chrome://crash')
        .catch(() => undefined);
      const failure = await env.step(act('click[search]')).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(EnvInfraError);
      expect(String((failure as Error).message)).toMatch(/crash/i);
      expect(livePages()).toHaveLength(0); // the episode's context was closed at once
      await env.reset({ taskId: task.info.id, seed: 0 });
      expect(env.observe().text).toContain(task.goal.instruction);
    } finally {
      await env.close();
    }
  });

  it('a hung page is an infra error once the time limit passes', async () => {
    const env = await webshopBridge.create();
    try {
      await env.reset({ taskId: task.info.id, seed: 0 });
      configureWebshop({ timeoutMs: 1500 });
      // The renderer's main thread never returns: no click, read or navigation is answered.
      await livePages()[0]!.evaluate('setTimeout(() => { for (;;) {} }, 0)');
      const t0 = Date.now();
      const failure = await env.step(act('click[search]')).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(EnvInfraError);
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(livePages()).toHaveLength(0);
    } finally {
      configureWebshop({ timeoutMs: 20_000 });
      await env.close();
    }
  });

  it('closes browser and server once the last environment has been closed (no leaked processes)', async () => {
    configureWebshop({ idleMs: 100 });
    const envs = await Promise.all([webshopBridge.create(), webshopBridge.create()]);
    await Promise.all(envs.map((e, i) => e.reset({ taskId: task.info.id, seed: i })));
    expect(browserPids().length).toBeGreaterThan(0);
    expect(runtimeStats()).toMatchObject({ leases: 2, activeContexts: 2, serverRunning: true });
    await envs[0]!.close();
    await new Promise((r) => setTimeout(r, 400));
    expect(runtimeStats().browserRunning).toBe(true); // one env still open
    await envs[1]!.close();
    await envs[1]!.close();
    await vi.waitFor(
      () => {
        expect(runtimeStats()).toMatchObject({ browserRunning: false, serverRunning: false });
        expect(browserPids()).toEqual([]);
      },
      { timeout: 15_000, interval: 100 },
    );
    configureWebshop({ idleMs: 60_000 });
  });
});
