// The webarena environment in a real Chromium: gold plans pass, an empty episode and perturbed gold
// fail (the audit's three inputs), invalid actions say why, tabs and truncation work. Few episodes:
// each is a browser context.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Action, EnvInfraError } from '../core/types.ts';
import { configureWebshop, shutdownWebshopRuntime } from '../webshop/index.ts';
import { WebArenaEnv } from './env.ts';
import { shutdownWebarenaSites } from './runtime.ts';

vi.setConfig({ testTimeout: 120_000 });

beforeAll(() => configureWebshop({ idleMs: 30_000 }));
afterAll(async () => {
  await shutdownWebshopRuntime();
  await shutdownWebarenaSites();
});

const act = (command: string): Action => ({ name: 'act', args: { command } });

async function play(env: WebArenaEnv, taskId: string, plan: (gold: Action[]) => Action[]) {
  await env.reset({ taskId, seed: 0 });
  const gold = (await env.solve()) ?? [];
  for (const a of plan(gold)) {
    const r = await env.step(a);
    expect(
      r.info.invalid ?? false,
      `${JSON.stringify(a)}: ${r.observation.text.slice(0, 200)}`,
    ).toBe(false);
    if (r.terminated) break;
  }
  return { gold, evaluation: await env.evaluate() };
}

describe('webarena episodes', () => {
  it('gold passes, empty fails and perturbed gold fails on each evaluator kind', async () => {
    const env = new WebArenaEnv();
    try {
      // program_html: a comment; perturbed = the submit click dropped.
      const g = await play(env, 'forum-comment-01', (gold) => gold);
      expect(g.evaluation).toMatchObject({ success: true, score: 1, metrics: { program_html: 1 } });
      const p = await play(env, 'forum-comment-01', (gold) =>
        gold.filter((a) => !/click/.test(String(a.args.command))),
      );
      expect(p.evaluation.success).toBe(false);
      const e = await play(env, 'forum-comment-01', () => []);
      expect(e.evaluation).toMatchObject({
        success: false,
        metrics: { program_html: 0, answered: 0 },
      });
      // string_match: the answer; perturbed = another answer.
      const s = await play(env, 'gitlab-member-role-01', (gold) => gold);
      expect(s.gold).toHaveLength(1);
      expect(s.evaluation).toMatchObject({
        success: true,
        metrics: { string_match: 1, exact_match: 1 },
      });
      const sp = await play(env, 'gitlab-member-role-01', () => [
        act('stop [Owner of everything]'),
      ]);
      expect(sp.evaluation).toMatchObject({ success: false, metrics: { string_match: 0 } });
      // url_match: the page; perturbed = another page of the site.
      const u = await play(env, 'gitlab-members-01', (gold) => gold);
      expect(u.evaluation).toMatchObject({ success: true, metrics: { url_match: 1 } });
      const up = await play(env, 'gitlab-members-01', () => [
        act('goto [http://localhost:8023/explore]'),
        act('stop []'),
      ]);
      expect(up.evaluation.metrics.url_match).toBe(0);
    } finally {
      await env.close();
    }
  });

  it('an unknown id or a URL outside the sites is an invalid action with the page repeated', async () => {
    const env = new WebArenaEnv();
    try {
      await env.reset({ taskId: 'forum-sort-new-01', seed: 0 });
      const r = await env.step(act('click [99999]'));
      expect(r.info.invalid).toBe(true);
      expect(r.observation.text).toMatch(
        /^Invalid action: there is no element with id \[99999\] on this page\.\n\nTab 0 \(current\)/,
      );
      const g = await env.step(act('goto [https://example.com/]'));
      expect(g.info.invalid).toBe(true);
      expect(g.observation.text).toContain(
        'is not a page of the sites (http://localhost:9999, http://localhost:8023)',
      );
      expect(env.getEnvState()).toMatchObject({ invalidActions: 2, steps: 2 });
    } finally {
      await env.close();
    }
  });

  it('tabs, scrolling and the search box; truncation is an option', async () => {
    const env = new WebArenaEnv();
    try {
      const r = await env.reset({
        taskId: 'forum-search-01',
        seed: 0,
        options: { maxObsTokens: 40 },
      });
      expect(r.observation.data).toMatchObject({ truncated: true, url: 'http://localhost:9999/' });
      await env.reset({ taskId: 'forum-search-01', seed: 0 });
      await env.step(act('scroll [down]'));
      expect((env.getEnvState() as { scrollY: number }).scrollY).toBeGreaterThan(0);
      expect(env.observe().text).not.toContain('searchbox');
      await env.step(act('scroll [up]'));
      const box = /\[(\d+)\] searchbox 'Search the forum'/.exec(env.observe().text)?.[1];
      const s = await env.step(act(`type [${box}] [telescope] [1]`));
      expect(s.observation.text).toContain('URL: http://localhost:9999/search?q=telescope');
      expect(env.getEnvState()).toMatchObject({ searches: 1 });
      await env.step(act('new_tab'));
      await env.step(act('goto [http://localhost:8023/explore]'));
      expect(env.observe().text).toMatch(
        /^Tab 0: Search results for telescope : Postmill \| Tab 1 \(current\): Explore projects · GitLab/,
      );
      await env.step(act('tab_focus [0]'));
      await env.step(act('close_tab'));
      expect(env.getEnvState()).toMatchObject({
        tabs: [{ url: 'http://localhost:8023/explore' }],
        activeTab: 0,
      });
      expect((await env.step(act('stop []'))).reward).toBe(0);
    } finally {
      await env.close();
    }
  });

  it('a crashed or closed page is an infra error, and the next reset works again', async () => {
    const env = new WebArenaEnv();
    try {
      await env.reset({ taskId: 'forum-sort-new-01', seed: 0 });
      const tabs = (env as unknown as { tabs: { page: { close(): Promise<void> } }[] }).tabs;
      await tabs[0]?.page.close();
      await expect(env.step(act('scroll [down]'))).rejects.toBeInstanceOf(EnvInfraError);
      await expect(env.step(act('scroll [down]'))).rejects.toThrow(/reset to retry/);
      const r = await env.reset({ taskId: 'forum-sort-new-01', seed: 0 });
      expect(r.observation.text).toContain('URL: http://localhost:9999/');
    } finally {
      await env.close();
    }
  });
});
