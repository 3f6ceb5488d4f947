import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from '../core/schema.ts';
import { bridgeNames, getBridge } from '../index.ts';
import { parseExpression, solve, Toy24Env, toy24Bridge } from './index.ts';
import { format, rat } from './rational.ts';
import { countSolutions, totalSequences } from './solver.ts';

const combine = (expression: string) => ({ name: 'combine', args: { expression } });

async function started(taskId: string): Promise<Toy24Env> {
  const env = new Toy24Env();
  await env.reset({ taskId, seed: 0 });
  return env;
}

describe('toy24 tasks', () => {
  it('are exactly the 1,362 solvable multisets of 1..13, each with a difficulty band and split', async () => {
    const tasks = await toy24Bridge.listTasks();
    expect(tasks).toHaveLength(1362);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(1362);
    expect(await toy24Bridge.getTask('1-1-1-1')).toBeUndefined(); // 4 is the most 1 1 1 1 can make
    expect(await toy24Bridge.getTask('4-7-8-8')).toMatchObject({
      id: '4-7-8-8',
      split: expect.any(String),
    });
    for (const t of tasks) {
      expect(['easy', 'medium', 'hard']).toContain(t.type);
      expect(['train', 'test']).toContain(t.split);
      expect(t.difficulty).toBeGreaterThanOrEqual(0);
      expect(t.difficulty).toBeLessThanOrEqual(1);
    }
    const test = tasks.filter((t) => t.split === 'test').length;
    expect(test / tasks.length).toBeGreaterThan(0.12);
    expect(test / tasks.length).toBeLessThan(0.28);
    for (const band of ['easy', 'medium', 'hard']) {
      expect(tasks.filter((t) => t.type === band).length).toBeGreaterThan(300);
    }
  });

  it('orders difficulty by how few move sequences reach 24', async () => {
    const tasks = await toy24Bridge.listTasks();
    const seqs = (id: string) => tasks.find((t) => t.id === id)?.meta?.solvingSequences as number;
    const byDifficulty = [...tasks].sort((a, b) => (a.difficulty ?? 0) - (b.difficulty ?? 0));
    for (let i = 1; i < byDifficulty.length; i++) {
      expect(seqs(byDifficulty[i]!.id)).toBeLessThanOrEqual(seqs(byDifficulty[i - 1]!.id));
    }
    expect(totalSequences(4)).toBe(9216);
    expect(countSolutions([3, 3, 8, 8].map((n) => rat(n)))).toBe(seqs('3-3-8-8'));
    expect((await toy24Bridge.getTask('3-3-8-8'))?.type).toBe('hard');
  });

  it('filters by split and type', async () => {
    const hardTest = await toy24Bridge.listTasks({ split: 'test', type: 'hard' });
    expect(hardTest.length).toBeGreaterThan(0);
    expect(hardTest.every((t) => t.split === 'test' && t.type === 'hard')).toBe(true);
  });

  it('every task is solvable through the environment by the solver', async () => {
    const env = new Toy24Env();
    for (const task of await toy24Bridge.listTasks()) {
      await env.reset({ taskId: task.id, seed: 0 });
      const moves = solve(task.id.split('-').map((n) => rat(Number(n))));
      expect(moves, task.id).toHaveLength(3);
      let last: Awaited<ReturnType<Toy24Env['step']>> | undefined;
      for (const m of moves ?? [])
        last = await env.step({
          name: 'combine',
          args: { a: format(m.a), op: m.op, b: format(m.b) },
        });
      expect(last?.reward, task.id).toBe(1);
      expect((await env.evaluate()).success, task.id).toBe(true);
    }
  });
});

describe('toy24 environment', () => {
  it('is registered', async () => {
    expect(bridgeNames()).toContain('toy24');
    expect(await getBridge('toy24')).toBe(toy24Bridge);
  });

  it('shows the numbers and a readable instruction on reset', async () => {
    const env = new Toy24Env();
    const r = await env.reset({ taskId: '4-7-8-8', seed: 1 });
    expect(r.observation.text).toMatch(/^Numbers: 4 7 8 8\. Goal: make 24/);
    expect(r.info.admissibleCommands).toContain('8 - 4');
    expect(r.info.admissibleCommands).toContain('4 + 7');
    expect(r.info.admissibleCommands).not.toContain('7 + 4');
    expect(r.info.admissibleCommands).not.toContain('8 / 0');
    expect(env.getEnvState()).toEqual({
      task: '4-7-8-8',
      initial: ['4', '7', '8', '8'],
      numbers: ['4', '7', '8', '8'],
      history: [],
      invalidActions: 0,
      done: false,
      value: null,
    });
  });

  it('uses exact fractions: 8 / (3 - 8/3) = 24', async () => {
    const env = await started('3-3-8-8');
    const s1 = await env.step({ name: 'combine', args: { a: 8, op: '/', b: 3 } });
    expect(s1.observation.text).toBe('8 / 3 = 8/3. Numbers: 3 8 8/3.');
    const s2 = await env.step({ name: 'combine', args: { a: 3, op: '-', b: '8/3' } });
    expect(s2.observation.text).toContain('3 - 8/3 = 1/3.');
    const s3 = await env.step(combine('8 / 1/3'));
    expect(s3).toMatchObject({ reward: 1, terminated: true, truncated: false });
    expect(s3.observation.text).toBe('8 / 1/3 = 24. Numbers: 24. You made 24!');
    expect(await env.evaluate()).toEqual({
      success: true,
      score: 1,
      metrics: { moves: 3, invalidActions: 0, remaining: 1 },
    });
    expect(validateJsonSchema(toy24Bridge.stateSchema(), env.getEnvState())).toEqual([]);
  });

  it('ends with failure when the last number is not 24', async () => {
    const env = await started('4-7-8-8');
    await env.step(combine('4 + 7'));
    await env.step(combine('8 + 8'));
    const last = await env.step(combine('11 + 16'));
    expect(last).toMatchObject({ reward: 0, terminated: true });
    expect(last.observation.text).toContain('the last number is 27, not 24');
    expect((await env.evaluate()).success).toBe(false);
    const after = await env.step(combine('27 + 1'));
    expect(after.info.invalid).toBe(true);
    expect(after.terminated).toBe(true);
    expect(after.observation.text).toContain('The game is over');
  });

  it('rejects invalid moves clearly and leaves the numbers unchanged', async () => {
    const env = await started('4-7-8-8');
    const cases: [Parameters<Toy24Env['step']>[0], RegExp][] = [
      [combine('5 + 4'), /5 is not among the numbers \(4 7 8 8\)/],
      [combine('4 - 4'), /4 appears only once/],
      [combine('4 ^ 7'), /Cannot read '4 \^ 7'/],
      [{ name: 'combine', args: { a: 4, op: '%', b: 7 } }, /Unknown operation '%'/],
      [{ name: 'combine', args: { a: 4.5, op: '+', b: 7 } }, /4.5 is not a number/],
      [{ name: 'combine', args: { a: 'four', op: '+', b: 7 } }, /'four' is not a number/],
      [{ name: 'combine', args: {} }, /Unknown operation nothing/],
      [{ name: 'add', args: { a: 4, b: 7 } }, /Unknown tool 'add'/],
    ];
    for (const [action, message] of cases) {
      const r = await env.step(action);
      expect(r.info.invalid, JSON.stringify(action)).toBe(true);
      expect(r.observation.text).toMatch(message);
      expect(r.observation.text).toMatch(/Numbers: 4 7 8 8\.$/);
      expect(r).toMatchObject({ reward: 0, terminated: false });
    }
    expect(env.getEnvState()).toMatchObject({
      numbers: ['4', '7', '8', '8'],
      invalidActions: cases.length,
    });
  });

  it('refuses division by zero', async () => {
    const env = await started('4-4-6-8');
    await env.step(combine('4 - 4'));
    const r = await env.step(combine('6 / 0'));
    expect(r.info.invalid).toBe(true);
    expect(r.observation.text).toContain('Division by zero (6 / 0)');
  });

  it('parses plain-text moves', () => {
    expect(parseExpression('8 / 8/3')).toEqual({ a: '8', op: '/', b: '8/3' });
    expect(parseExpression('8/3')).toEqual({ a: '8', op: '/', b: '3' });
    expect(parseExpression(' 4--4 ')).toEqual({ a: '4', op: '-', b: '-4' });
    expect(parseExpression('4 x 6')).toEqual({ a: '4', op: '*', b: '6' });
    expect(parseExpression('12 ÷ 1/2')).toEqual({ a: '12', op: '/', b: '1/2' });
    expect(parseExpression('4 + ')).toBeUndefined();
    expect(parseExpression('(4 + 4) * 3')).toBeUndefined();
  });

  it('restores from a snapshot and continues', async () => {
    const env = await started('3-3-8-8');
    await env.step(combine('8 / 3'));
    const snapshot = JSON.parse(JSON.stringify(await env.saveState()));
    const copy = await toy24Bridge.fromState(snapshot);
    expect(copy.getEnvState()).toEqual(env.getEnvState());
    expect(copy.observe()).toEqual(env.observe());
    await copy.step(combine('3 - 8/3'));
    expect((await copy.step(combine('8 / 1/3'))).reward).toBe(1);
    await expect(toy24Bridge.fromState({ ...snapshot, envType: 'household' })).rejects.toThrow(
      /cannot restore/,
    );
    await expect(toy24Bridge.fromState({ ...snapshot, state: { view: {} } })).rejects.toThrow(
      /invalid snapshot/,
    );
  });

  it('rejects unknown tasks and use after close', async () => {
    const env = new Toy24Env();
    await expect(env.reset({ taskId: '1-1-1-1', seed: 0 })).rejects.toThrow(
      /unknown task '1-1-1-1'/,
    );
    await env.close();
    await expect(env.step(combine('1 + 1'))).rejects.toThrow(/closed/);
  });
});
