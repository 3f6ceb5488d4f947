import { describe, expect, it } from 'vitest';
import { filterTasks, invalidStep, restoredEnv, stepResult } from './helpers.ts';
import { fnv1a, mulberry32 } from './rng.ts';
import type { ActionableEnv, EnvSnapshot, TaskInfo } from './types.ts';

describe('bridges/core helpers', () => {
  it('stepResult defaults to reward 0, not over, empty info', () => {
    expect(stepResult({ text: 'ok' })).toEqual({
      observation: { text: 'ok' },
      reward: 0,
      terminated: false,
      truncated: false,
      info: {},
    });
    expect(stepResult({ text: 'done' }, { reward: 1, terminated: true }).terminated).toBe(true);
  });

  it('invalidStep marks info.invalid and keeps the bridge info after it', () => {
    const r = invalidStep(
      { text: 'bad' },
      { terminated: true, info: { admissibleCommands: ['a'] } },
    );
    expect(r.info).toEqual({ invalid: true, admissibleCommands: ['a'] });
    expect(Object.keys(r.info)).toEqual(['invalid', 'admissibleCommands']);
    expect(r.reward).toBe(0);
    expect(r.terminated).toBe(true);
  });

  it('filterTasks matches split and type exactly and text in id or goal, case-insensitively', () => {
    const tasks: TaskInfo[] = [
      { id: 'a-1', type: 'x', goal: 'Find the Mug', split: 'train' },
      { id: 'b-2', type: 'y', goal: 'heat it', split: 'test' },
    ];
    expect(filterTasks(tasks)).toBe(tasks);
    expect(filterTasks(tasks, { split: 'test' }).map((t) => t.id)).toEqual(['b-2']);
    expect(filterTasks(tasks, { type: 'x' }).map((t) => t.id)).toEqual(['a-1']);
    expect(filterTasks(tasks, { text: 'MUG' }).map((t) => t.id)).toEqual(['a-1']);
    expect(filterTasks(tasks, { text: 'B-2' }).map((t) => t.id)).toEqual(['b-2']);
  });

  it('restoredEnv closes the env when the snapshot cannot be restored', async () => {
    let closed = 0;
    const env = {
      restore: async () => {
        throw new Error('bad snapshot');
      },
      close: async () => {
        closed += 1;
      },
    } as unknown as ActionableEnv & { restore(s: EnvSnapshot): Promise<void> };
    const snapshot: EnvSnapshot = { envType: 'x', reset: { taskId: 't', seed: 0 } };
    await expect(restoredEnv(env, snapshot)).rejects.toThrow('bad snapshot');
    expect(closed).toBe(1);
    const good = { ...env, restore: async () => {} } as typeof env;
    await expect(restoredEnv(good, snapshot)).resolves.toBe(good);
  });

  it('mulberry32 and fnv1a are the fixed, machine-independent functions', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
    const one = mulberry32(1);
    expect([one(), one()]).toEqual([0.6270739405881613, 0.002735721180215478]);
  });
});
