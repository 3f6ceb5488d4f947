import { describe, expect, it } from 'vitest';
import { toy24Bridge } from '../../../bridges/toy24/index.ts';
import { play, ratesByType } from '../testing/play.ts';
import { toy24Exact, toy24Greedy, toy24Random } from './policies.ts';

const tasks = await toy24Bridge.listTasks();
// Every 15th task: ~90 tasks spread over the three difficulty bands.
const sample = tasks.filter((_, i) => i % 15 === 0);

async function runAll(policy: typeof toy24Exact, seed = 1, options?: { skills: string[] }) {
  const out = [];
  for (const t of sample)
    out.push(
      await play(toy24Bridge, policy, { taskId: t.id, seed, ...(options ? { options } : {}) }),
    );
  return out;
}

describe('toy24 scripted policies', () => {
  it('exact solves every sampled task; greedy and random trail it in every band', async () => {
    const exact = ratesByType(await runAll(toy24Exact));
    const greedy = ratesByType(await runAll(toy24Greedy));
    const random = ratesByType(await runAll(toy24Random));
    for (const type of ['easy', 'medium', 'hard']) {
      expect(exact[type]?.rate).toBe(1);
      expect(greedy[type]?.rate ?? 0).toBeLessThan(0.6);
      expect(random[type]?.rate ?? 0).toBeLessThan(0.6);
    }
    // Luck and one-step greed both fare worst where few move sequences work.
    expect(greedy.easy?.rate ?? 0).toBeGreaterThanOrEqual(greedy.hard?.rate ?? 0);
    expect(random.easy?.rate ?? 0).toBeGreaterThanOrEqual(random.hard?.rate ?? 0);
  });

  it('greedy fails tasks that need a fractional intermediate; exact and lookahead-search solve them', async () => {
    for (const taskId of ['3-3-8-8', '1-5-5-5']) {
      expect((await play(toy24Bridge, toy24Greedy, { taskId, seed: 0 })).success).toBe(false);
      expect((await play(toy24Bridge, toy24Exact, { taskId, seed: 0 })).success).toBe(true);
      const skilled = await play(toy24Bridge, toy24Greedy, {
        taskId,
        seed: 0,
        options: { skills: ['lookahead-search'] },
      });
      expect(skilled.success).toBe(true);
    }
    const exact = await play(toy24Bridge, toy24Exact, { taskId: '3-3-8-8', seed: 0 });
    expect(exact.commands.join(' ')).toMatch(/8\/3/);
  });

  it('is deterministic per seed, and the seed matters for the random player', async () => {
    const a = await play(toy24Bridge, toy24Random, { taskId: '1-2-3-4', seed: 5 });
    const b = await play(toy24Bridge, toy24Random, { taskId: '1-2-3-4', seed: 5 });
    expect(b.commands).toEqual(a.commands);
    const seeds = await Promise.all(
      [0, 1, 2, 3, 4, 6].map((seed) => play(toy24Bridge, toy24Random, { taskId: '1-2-3-4', seed })),
    );
    expect(new Set(seeds.map((r) => r.commands.join('|'))).size).toBeGreaterThan(1);
  });

  it('reads the numbers from the observation, so it follows a changed state', async () => {
    const session = await toy24Exact.start({
      bridge: 'toy24',
      task: { id: 'x', type: 'easy', goal: 'Make 24', split: 'test' },
      tools: toy24Bridge.tools(),
      seed: 0,
      maxSteps: 10,
    });
    const d = await session.act({ text: '6 * 2 = 12. Numbers: 12 12.' }, {});
    expect(d).toMatchObject({
      kind: 'act',
      action: { name: 'combine', args: { a: '12', op: '+', b: '12' } },
    });
    const stuck = await session.act({ text: 'Numbers: 1 1.' }, {});
    expect(stuck.kind).toBe('give_up');
  });
});
