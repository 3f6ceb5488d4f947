import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json.ts';
import { checkSpec, HarnessSpecSchema } from './spec.ts';

function stack(depth: number): unknown {
  let env: unknown = { type: 'base', bridge: 'toy24', task: '1-1-1-8' };
  for (let i = 0; i < depth; i++) env = { type: 'stage', actions: [], env };
  return { version: 1, env };
}

describe('nesting depth', () => {
  it('measures without recursion, so 20,000 levels cost no stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it('a 20,000-deep spec gets a clear answer instead of a stack overflow', () => {
    const checked = checkSpec(stack(20_000));
    expect(checked).toEqual({
      ok: false,
      message:
        'invalid harness spec: (spec): nested deeper than 100 levels (a harness stack has at most 16 layers)',
    });
    expect(HarnessSpecSchema.safeParse(stack(20_000)).success).toBe(false);
    // Within the JSON depth, the stack rule still speaks for itself.
    expect(checkSpec(stack(20))).toMatchObject({ ok: false, message: /deeper than 16 levels/ });
    expect(checkSpec(stack(3)).ok).toBe(true);
  });
});
