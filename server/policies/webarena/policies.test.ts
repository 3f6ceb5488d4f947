// The scripted webarena policies in a real Chromium: careful solves what each flawed twin fails,
// each for its named reason. Few episodes (each is a browser context).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shutdownWebarenaSites, webarenaBridge } from '../../../bridges/webarena/index.ts';
import { configureWebshop, shutdownWebshopRuntime } from '../../../bridges/webshop/index.ts';
import { getPolicy } from '../index.ts';
import { play } from '../testing/play.ts';

vi.setConfig({ testTimeout: 150_000 });
beforeAll(() => configureWebshop({ idleMs: 30_000 }));
afterAll(async () => {
  await shutdownWebshopRuntime();
  await shutdownWebarenaSites();
});

const run = (policy: string, taskId: string) =>
  play(webarenaBridge, getPolicy(`scripted:webarena-${policy}`), { taskId, seed: 0, maxSteps: 30 });

describe('scripted webarena policies', () => {
  it('careful posts and checks a comment; no-verify types it with Enter and stops unposted', async () => {
    expect((await run('careful', 'forum-comment-01')).success).toBe(true);
    const nv = await run('no-verify', 'forum-comment-01');
    expect(nv.success).toBe(false);
    expect(nv.commands.slice(-2)).toEqual([
      expect.stringMatching(/^type \[\d+\] \[.+\] \[1\]$/),
      'stop []',
    ]);
  });

  it('careful reads the labels on the issue page; stops-early answers from the truncated list', async () => {
    expect((await run('careful', 'gitlab-issue-labels-01')).success).toBe(true);
    const se = await run('stops-early', 'gitlab-issue-labels-01');
    expect(se.success).toBe(false);
    expect(se.commands.some((c) => c.startsWith('click'))).toBe(false);
  });

  it('no-search never types into a search box and runs out of steps where the intent does not say where', async () => {
    const ns = await run('no-search', 'forum-find-forum-01');
    expect(ns.success).toBe(false);
    expect(ns.commands.some((c) => c.startsWith('type') || c.startsWith('goto'))).toBe(false);
    expect(ns.steps).toBeGreaterThanOrEqual(29);
  });
});
