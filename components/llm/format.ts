// How token counts, costs and an LLM policy's mode read on screen (run page, episode page, step),
// as plain functions so every view says them alike.
import type { TokenPrice, TokenUsage } from '../../contracts/llm.ts';
import { costOf } from '../../contracts/llm.ts';

/** 1,234,567 tokens, as counted (no rounding: totals are compared with the server's). */
export function tokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  return n.toLocaleString('en-US');
}

/** 12.3k / 4.5M: short, for table cells. */
export function shortTokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 10_000) return n.toLocaleString('en-US');
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** US dollars with enough digits that a cheap run is not shown as $0.00. */
export function usd(cost: number | null | undefined): string {
  if (cost === null || cost === undefined || Number.isNaN(cost)) return '—';
  if (cost === 0) return '$0';
  if (cost < 0.01) return `$${cost.toPrecision(2)}`;
  return `$${cost.toFixed(cost < 10 ? 3 : 2)}`;
}

/** "$0.40 prompt · $0.10 cached · $1.60 completion per 1M tokens". */
export function priceLine(p: TokenPrice): string {
  const d = (v: number) => `$${v}`;
  return `${d(p.prompt)} prompt${p.cached !== undefined ? ` · ${d(p.cached)} cached` : ''} · ${d(p.completion)} completion per 1M tokens`;
}

/** "1,200 prompt (1,024 cached) · 35 completion". */
export function usageLine(u: Pick<TokenUsage, 'prompt' | 'completion' | 'cached'>): string {
  return `${tokens(u.prompt)} prompt${u.cached > 0 ? ` (${tokens(u.cached)} cached)` : ''} · ${tokens(u.completion)} completion`;
}

/** An episode's tokens from its columns, or null when its policy reported none. */
export function episodeUsage(e: {
  promptTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
}): Pick<TokenUsage, 'prompt' | 'completion' | 'cached'> | null {
  if (e.promptTokens === null && e.outputTokens === null) return null;
  return {
    prompt: e.promptTokens ?? 0,
    completion: e.outputTokens ?? 0,
    cached: e.cachedTokens ?? 0,
  };
}

export function costLine(
  u: Pick<TokenUsage, 'prompt' | 'completion' | 'cached'> | null,
  price: TokenPrice | null,
): string | null {
  return u && price ? usd(costOf(u, price)) : null;
}

/** Policies that talk to an LLM endpoint: openai:<model>, and wrappers around one. */
export function isLlmPolicy(policy: string): boolean {
  return /(^|\()openai:/.test(policy);
}

/** Why the step spoke as it did, in a few words. */
export function modeLabel(mode: 'tools' | 'react'): string {
  return mode === 'tools' ? 'tool call' : 'ReAct text';
}
