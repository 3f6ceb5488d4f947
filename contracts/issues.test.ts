import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstIssue, problemsOf } from './issues.ts';
import { LaunchRunInputSchema, RigInputSchema } from './launch.ts';

const problems = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return problemsOf(parsed.error);
};

describe('problems as sentences', () => {
  it("re-words zod's default messages from the issue's fields", () => {
    const schema = z.object({
      k: z.number().int().min(1).max(100_000),
      name: z.string().min(1),
      tags: z.array(z.string()).min(1),
      mode: z.enum(['local', 'bullmq']),
      url: z.string().url(),
      seed: z.number().int(),
      extra: z.strictObject({}),
    });
    expect(
      problems(schema, {
        k: 1_000_000,
        name: '',
        tags: [],
        mode: 'x',
        url: 'nope',
        seed: 1.5,
        extra: { q: 1 },
      }),
    ).toEqual([
      { path: 'k', message: 'must be at most 100,000' },
      { path: 'name', message: 'must not be empty' },
      { path: 'tags', message: 'must not be empty' },
      { path: 'mode', message: 'must be one of "local", "bullmq"' },
      { path: 'url', message: 'must be a URL' },
      { path: 'seed', message: 'must be a whole number' },
      { path: 'extra', message: 'has unknown field "q"' },
    ]);
    expect(problems(schema, {})[0]).toEqual({ path: 'k', message: 'is required' });
  });

  it("keeps a schema's own message and names the path in one line", () => {
    const band = problems(RigInputSchema, { task: 'household:t', policy: 'p', band: [0.9, 0.1] });
    expect(band).toEqual([{ path: 'band', message: 'the low end must not be above the high end' }]);
    const parsed = z.object({ k: z.number().min(1) }).safeParse({ k: 0 });
    expect(parsed.success ? '' : firstIssue(parsed.error, 'input')).toBe('k: must be at least 1');
  });

  it('the launch schema refuses what the form used to accept silently, in the same words', () => {
    const base = { spec: {}, policy: 'scripted:toy24-greedy' };
    expect(problems(LaunchRunInputSchema, { ...base, maxSteps: 100_001 })).toEqual([
      { path: 'maxSteps', message: 'must be at most 100,000' },
    ]);
    expect(problems(LaunchRunInputSchema, { ...base, k: 1_000_000 })).toEqual([
      { path: 'k', message: 'must be at most 100,000' },
    ]);
    // Seeds are 32-bit: the last one (seed + K − 1) must be one too.
    expect(problems(LaunchRunInputSchema, { ...base, seed: 2_147_483_647, k: 8 })[0]?.path).toBe(
      'seed',
    );
    // A negative first seed is a seed (every bridge maps it to its generator's state).
    expect(LaunchRunInputSchema.safeParse({ ...base, seed: -5 }).success).toBe(true);
    expect(problems(LaunchRunInputSchema, { ...base, policy: '' })).toEqual([
      { path: 'policy', message: 'choose a policy' },
    ]);
  });
});
