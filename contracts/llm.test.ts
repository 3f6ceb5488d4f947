import { describe, expect, it } from 'vitest';
import {
  addUsage,
  costOf,
  LlmPolicyOptionsSchema,
  modeSentence,
  priceOfOptions,
  ZERO_USAGE,
} from './llm.ts';

describe('token usage and cost', () => {
  it('adds usage field by field, keeping reasoning tokens only when some request had them', () => {
    const a = addUsage(ZERO_USAGE, { prompt: 10, completion: 5, cached: 2, requests: 1 });
    expect(a).toEqual({ prompt: 10, completion: 5, cached: 2, requests: 1 });
    const b = addUsage(a, { prompt: 1, completion: 2, cached: 0, reasoning: 7, requests: 1 });
    expect(b).toEqual({ prompt: 11, completion: 7, cached: 2, reasoning: 7, requests: 2 });
    expect(addUsage(b, undefined)).toBe(b);
  });

  it('prices uncached prompt, cached prompt and completion tokens per million', () => {
    const usage = { prompt: 1_000_000, completion: 500_000, cached: 200_000 };
    expect(costOf(usage, { prompt: 2, completion: 8 })).toBeCloseTo(2 + 4);
    expect(costOf(usage, { prompt: 2, completion: 8, cached: 0.5 })).toBeCloseTo(1.6 + 0.1 + 4);
    // A server that reports more cached than prompt tokens cannot make the cost negative.
    expect(costOf({ prompt: 10, completion: 0, cached: 50 }, { prompt: 1, completion: 1 })).toBe(
      10 / 1_000_000,
    );
  });

  it('reads a price from policy options only when prompt and completion are both set', () => {
    expect(priceOfOptions({ pricePromptPerM: 0.4, priceCompletionPerM: 1.6 })).toEqual({
      prompt: 0.4,
      completion: 1.6,
    });
    expect(
      priceOfOptions({ pricePromptPerM: 0.4, priceCompletionPerM: 1.6, priceCachedPerM: 0.1 }),
    ).toEqual({ prompt: 0.4, completion: 1.6, cached: 0.1 });
    expect(priceOfOptions({ pricePromptPerM: 0.4 })).toBeUndefined();
    expect(priceOfOptions({ pricePromptPerM: -1, priceCompletionPerM: 1 })).toBeUndefined();
    expect(priceOfOptions(null)).toBeUndefined();
  });

  it('says which mode a run used and why', () => {
    expect(modeSentence([])).toBeNull();
    expect(modeSentence([{ requested: 'auto', mode: 'tools', reason: null, episodes: 3 }])).toBe(
      'Mode auto stayed on tool calls (all 3 episodes).',
    );
    expect(
      modeSentence([
        {
          requested: 'auto',
          mode: 'react',
          reason: 'the endpoint refused tool calling',
          episodes: 2,
        },
        { requested: 'auto', mode: 'tools', reason: null, episodes: 1 },
      ]),
    ).toBe(
      'Mode auto fell back to ReAct text for 2 of 3 episodes: the endpoint refused tool calling.',
    );
    expect(modeSentence([{ requested: 'react', mode: 'react', reason: null, episodes: 1 }])).toBe(
      'Mode react, as the run asked (its episode).',
    );
  });

  it('defaults the LLM options to auto mode, thinks that cost a step, reasoning left out', () => {
    expect(LlmPolicyOptionsSchema.parse({})).toEqual({
      mode: 'auto',
      think: 'step',
      keepReasoning: false,
      fewShot: true,
    });
    expect(LlmPolicyOptionsSchema.safeParse({ mode: 'text' }).success).toBe(false);
  });
});
