import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors.ts';
import { getPolicy, listPolicies, registerPolicyResolver } from './index.ts';
import { SKILL_TAGS } from './skills.ts';

describe('policy registry', () => {
  it('lists scripted policies per bridge with descriptions and weaknesses', () => {
    const household = listPolicies('household').map((d) => d.id);
    expect(household).toEqual(
      expect.arrayContaining([
        'scripted:household-explorer',
        'scripted:household-no-open',
        'scripted:household-looper',
        'scripted:household-no-transform',
        'human',
      ]),
    );
    expect(household.some((id) => id.startsWith('scripted:toy24'))).toBe(false);
    const toy = listPolicies('toy24').filter((d) => d.kind === 'scripted');
    // The generic baseline (no bridge of its own) is listed for every bridge.
    expect(toy.map((d) => d.id).sort()).toEqual([
      'scripted:schema-random',
      'scripted:toy24-exact',
      'scripted:toy24-greedy',
      'scripted:toy24-random',
    ]);
    for (const d of listPolicies().filter((p) => p.kind === 'scripted')) {
      expect(d.description.length).toBeGreaterThan(20);
      expect(d.weaknesses?.length).toBeGreaterThan(0);
      expect(getPolicy(d.id).descriptor).toEqual(d);
    }
  });

  it('resolves openai:<model> for any model and lists the configured one', () => {
    expect(getPolicy('openai:qwen3-8b').descriptor).toMatchObject({
      id: 'openai:qwen3-8b',
      kind: 'openai',
    });
    expect(
      listPolicies(undefined, { openaiModel: 'gpt-test' }).some((d) => d.id === 'openai:gpt-test'),
    ).toBe(true);
    expect(listPolicies().some((d) => d.kind === 'openai')).toBe(false);
    expect(getPolicy('human').descriptor.kind).toBe('human');
  });

  it('throws NotFoundError for unknown ids, and accepts resolvers from other areas', () => {
    expect(() => getPolicy('scripted:nope')).toThrow(NotFoundError);
    expect(() => getPolicy('openai:')).toThrow(NotFoundError);
    const explorer = getPolicy('scripted:household-explorer');
    registerPolicyResolver({
      resolve: (id) => (id === 'other-area(scripted:household-explorer)' ? explorer : undefined),
      list: () => [
        {
          id: 'other-area(scripted:household-explorer)',
          kind: 'bpe',
          description: 'test resolver',
        },
      ],
    });
    expect(getPolicy('other-area(scripted:household-explorer)')).toBe(explorer);
    expect(listPolicies().some((d) => d.kind === 'bpe')).toBe(true);
  });

  it('documents every skill tag', () => {
    for (const text of Object.values(SKILL_TAGS)) expect(text.length).toBeGreaterThan(20);
  });
});
