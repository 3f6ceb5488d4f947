// The webshop policies on a sample of tasks through the real browser: their success and reward
// differ as their named weaknesses predict.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allTasks,
  configureWebshop,
  shutdownWebshopRuntime,
  webshopBridge,
} from '../../../bridges/webshop/index.ts';
import { getPolicy, listPolicies } from '../index.ts';
import type { Policy } from '../types.ts';

vi.setConfig({ testTimeout: 240_000 });

beforeAll(() => configureWebshop({ idleMs: 60_000 }));
afterAll(() => shutdownWebshopRuntime());

/** One episode; the score is the bridge's verifier (WebShop reward) on what was bought. */
async function run(policy: Policy, taskId: string, seed = 0, maxSteps = 30) {
  const task = (await webshopBridge.getTask(taskId))!;
  const env = await webshopBridge.create();
  try {
    let { observation, info } = await env.reset({ taskId, seed });
    const session = await policy.start({
      bridge: 'webshop',
      task,
      tools: env.tools(),
      textTool: webshopBridge.textTool!,
      seed,
      maxSteps,
    });
    const commands: string[] = [];
    for (let i = 0; i < maxSteps; i++) {
      const d = await session.act(observation, info);
      if (d.kind !== 'act') break;
      commands.push(String(d.action.args.command));
      const r = await env.step(d.action);
      ({ observation, info } = r);
      if (r.terminated) break;
    }
    return { ...(await env.evaluate()), commands };
  } finally {
    await env.close();
  }
}

// A spread sample: four tasks that name options, one that names none.
const withOptions = allTasks()
  .filter((t) => Object.keys(t.goal.options).length > 0)
  .filter((_, i) => i % 97 === 5)
  .slice(0, 4);
const withoutOptions = allTasks().find((t) => Object.keys(t.goal.options).length === 0)!;
const sample = [...withOptions, withoutOptions];

describe('webshop scripted policies', () => {
  it('are registered for the bridge', () => {
    const ids = listPolicies('webshop').map((d) => d.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'scripted:webshop-careful',
        'scripted:webshop-first-result',
        'scripted:webshop-no-options',
      ]),
    );
  });

  it('differ as predicted: careful succeeds, no-options fails when options are asked, first-result scores lowest', async () => {
    const results: Record<string, { success: boolean; score: number; commands: string[] }[]> = {};
    for (const id of ['careful', 'no-options', 'first-result']) {
      const policy = getPolicy(`scripted:webshop-${id}`);
      results[id] = [];
      for (const t of sample) results[id].push(await run(policy, t.info.id));
    }
    const mean = (id: string) => results[id]!.reduce((s, r) => s + r.score, 0) / sample.length;
    const wins = (id: string) => results[id]!.filter((r) => r.success).length;
    console.info(
      `webshop policies on ${sample.length} tasks: ` +
        ['careful', 'no-options', 'first-result']
          .map((id) => `${id} ${wins(id)}/${sample.length} mean ${mean(id).toFixed(3)}`)
          .join(', '),
    );
    expect(wins('careful')).toBeGreaterThanOrEqual(4);
    // Careful buys after checking features and choosing every asked option.
    expect(results.careful![0]!.commands).toContain('click[features]');
    // Never choosing options: no success where options are asked, and the option share is lost.
    expect(results['no-options']!.slice(0, 4).every((r) => !r.success)).toBe(true);
    expect(results['no-options']![4]!.success).toBe(results.careful![4]!.success);
    expect(mean('no-options')).toBeLessThan(mean('careful'));
    expect(mean('first-result')).toBeLessThan(mean('careful'));
    expect(wins('first-result')).toBeLessThan(wins('careful'));
    // First-result: one search, one click, buy.
    expect(results['first-result']![0]!.commands).toHaveLength(3);
  });

  it('policy seeds change the first-result buyer’s pick (GRPO groups need G different plays)', async () => {
    const policy = getPolicy('scripted:webshop-first-result');
    const picks = new Set<string>();
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const r = await run(policy, sample[0]!.info.id, seed);
      picks.add(r.commands[1] ?? '');
    }
    expect(picks.size).toBeGreaterThan(1);
  });

  it('is deterministic: same task and seed, same commands', async () => {
    const policy = getPolicy('scripted:webshop-careful');
    const a = await run(policy, sample[0]!.info.id, 3);
    const b = await run(policy, sample[0]!.info.id, 3);
    expect(a.commands).toEqual(b.commands);
  });
});
