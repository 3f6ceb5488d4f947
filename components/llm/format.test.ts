import { describe, expect, it } from 'vitest';
import {
  costLine,
  episodeUsage,
  isLlmPolicy,
  priceLine,
  shortTokens,
  tokens,
  usageLine,
  usd,
} from './format.ts';

describe('token and cost wording', () => {
  it('shows counts whole, short forms in tables', () => {
    expect(tokens(1234567)).toBe('1,234,567');
    expect(tokens(null)).toBe('—');
    expect(shortTokens(9999)).toBe('9,999');
    expect(shortTokens(12_345)).toBe('12.3k');
    expect(shortTokens(4_500_000)).toBe('4.50M');
  });

  it('never shows a cheap run as $0.00', () => {
    expect(usd(0.000123)).toBe('$0.00012');
    expect(usd(0.5)).toBe('$0.500');
    expect(usd(12.345)).toBe('$12.35');
    expect(usd(0)).toBe('$0');
    expect(usd(null)).toBe('—');
  });

  it('says usage, price and an episode cost in one line each', () => {
    expect(usageLine({ prompt: 1200, completion: 35, cached: 1024 })).toBe(
      '1,200 prompt (1,024 cached) · 35 completion',
    );
    expect(usageLine({ prompt: 10, completion: 5, cached: 0 })).toBe('10 prompt · 5 completion');
    expect(priceLine({ prompt: 0.4, completion: 1.6, cached: 0.1 })).toBe(
      '$0.4 prompt · $0.1 cached · $1.6 completion per 1M tokens',
    );
    const u = episodeUsage({ promptTokens: 1_000_000, outputTokens: 0, cachedTokens: null });
    expect(u).toEqual({ prompt: 1_000_000, completion: 0, cached: 0 });
    expect(costLine(u, { prompt: 2, completion: 8 })).toBe('$2.000');
    expect(costLine(u, null)).toBeNull();
    expect(episodeUsage({ promptTokens: null, outputTokens: null, cachedTokens: null })).toBeNull();
  });

  it('knows LLM policies, wrapped ones too', () => {
    expect(isLlmPolicy('openai:gpt-4.1')).toBe(true);
    expect(isLlmPolicy('bpe(openai:qwen3-8b,cap=10)')).toBe(true);
    expect(isLlmPolicy('scripted:household-explorer')).toBe(false);
    expect(isLlmPolicy('bpe(scripted:household-explorer)')).toBe(false);
  });
});
