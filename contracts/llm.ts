// What an LLM policy reports beside its actions: the tokens each request used, the reasoning it
// produced (reasoning_content or <think> blocks), the reply text, the mode it spoke (tool calls or
// ReAct text) and why, and the price that turns tokens into a cost estimate. Written per step and
// per episode by the rollouts, shown by the run page, the episode page and the exports.
import { z } from 'zod';
import type { Problem } from './issues.ts';

const Count = z.number().int().min(0);

/** Tokens of one or more chat completions (the server's `usage`). */
export const TokenUsageSchema = z.object({
  prompt: Count,
  completion: Count,
  /** Prompt tokens the server served from its cache (prompt_tokens_details.cached_tokens). */
  cached: Count,
  /** Completion tokens spent reasoning, when the server says (completion_tokens_details). */
  reasoning: Count.optional(),
  /** Completions these tokens came from. */
  requests: Count,
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const ZERO_USAGE: TokenUsage = { prompt: 0, completion: 0, cached: 0, requests: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return a;
  const reasoning =
    a.reasoning === undefined && b.reasoning === undefined
      ? undefined
      : (a.reasoning ?? 0) + (b.reasoning ?? 0);
  return {
    prompt: a.prompt + b.prompt,
    completion: a.completion + b.completion,
    cached: a.cached + b.cached,
    requests: a.requests + b.requests,
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}

export const LLM_MODES = ['auto', 'tools', 'react'] as const;
export type LlmModeOption = (typeof LLM_MODES)[number];
/** The mode a request was made in (auto is a choice between these two). */
export const SPOKEN_MODES = ['tools', 'react'] as const;
export type SpokenMode = (typeof SPOKEN_MODES)[number];

const Price = z.number().min(0).optional();

/**
 * The LLM policy options a launch form and `--policy-option key=value` set (openai:<model>, and
 * bpe(openai:<model>) passes them through); the policy adds its connection settings.
 */
export const LlmPolicyOptionsSchema = z.object({
  /** tools | react | auto (tools, then react for the rest of the run when tools do not work). */
  mode: z.enum(LLM_MODES).default('auto'),
  /** ReAct `think: …`: costs a step (ReAct's ALFWorld runs) or is free. */
  think: z.enum(['step', 'free']).default('step'),
  /** Send the model's reasoning (reasoning_content, <think> blocks) back in later prompts. */
  keepReasoning: z.boolean().default(false),
  /** ReAct few-shot examples: the bridge's prompt file (true), none (false), or your own text. */
  fewShot: z.union([z.boolean(), z.string().min(1).max(50_000)]).default(true),
  /** US dollars per million tokens, for the run's cost estimate (the policy itself ignores them). */
  pricePromptPerM: Price,
  priceCompletionPerM: Price,
  priceCachedPerM: Price,
});
export type LlmPolicyOptions = z.infer<typeof LlmPolicyOptionsSchema>;

/** What a step of an LLM policy adds to the recorded step (Step.llm). */
export const StepLlmSchema = z.object({
  mode: z.enum(SPOKEN_MODES),
  usage: TokenUsageSchema.optional(),
  /** reasoning_content / reasoning, or the text of <think>…</think> blocks. */
  reasoning: z.string().optional(),
  /** The reply's visible text (reasoning removed), as the model wrote it. */
  reply: z.string().optional(),
  /** A ReAct `think:` step (answered "OK." by the policy, never sent to the environment). */
  think: z.boolean().optional(),
});
export type StepLlm = z.infer<typeof StepLlmSchema>;

/** Which kind of decision a step was, for the token breakdown. */
export const DECISION_KINDS = ['env', 'meta', 'think', 'invalid'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** What an LLM policy reports about its episode (Episode.llm). */
export const EpisodeLlmSchema = z.object({
  model: z.string(),
  /** The mode the run asked for. */
  requested: z.enum(LLM_MODES),
  /** The mode the episode ended in. */
  mode: z.enum(SPOKEN_MODES),
  /** Why auto chose react (null: tools worked, or the mode was asked for). */
  reason: z.string().nullable(),
  /** The step at which this episode switched (null: it started in its mode). */
  switchedAt: z.number().int().nullable(),
  /** True when an earlier episode of the run found the reason and this one started in react. */
  inherited: z.boolean(),
  /** Tokens by kind of step: environment actions, meta-actions (bpe), thinks, invalid replies. */
  byKind: z.partialRecord(z.enum(DECISION_KINDS), TokenUsageSchema),
});
export type EpisodeLlm = z.infer<typeof EpisodeLlmSchema>;

/** US dollars per million tokens; unset cached: cached prompt tokens cost the prompt price. */
export const TokenPriceSchema = z.object({
  prompt: z.number().min(0),
  completion: z.number().min(0),
  cached: z.number().min(0).optional(),
});
export type TokenPrice = z.infer<typeof TokenPriceSchema>;

/** The policy options that set a run's price (flat, so a form field or a CLI flag sets each). */
export const PRICE_OPTION_KEYS = {
  prompt: 'pricePromptPerM',
  completion: 'priceCompletionPerM',
  cached: 'priceCachedPerM',
} as const satisfies Record<keyof TokenPrice, keyof LlmPolicyOptions>;

/** The price a run's policy options name, if they name one (prompt and completion both). */
export function priceOfOptions(options: Record<string, unknown> | null | undefined) {
  const num = (k: string) => {
    const v = options?.[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  const prompt = num(PRICE_OPTION_KEYS.prompt);
  const completion = num(PRICE_OPTION_KEYS.completion);
  if (prompt === undefined || completion === undefined) return undefined;
  const cached = num(PRICE_OPTION_KEYS.cached);
  return { prompt, completion, ...(cached !== undefined ? { cached } : {}) } satisfies TokenPrice;
}

/** A price needs both halves: the problem when only one of prompt and completion is set. */
export function pricePairProblem(
  options: Record<string, unknown> | undefined,
): Problem | undefined {
  const p = options?.[PRICE_OPTION_KEYS.prompt];
  const c = options?.[PRICE_OPTION_KEYS.completion];
  if ((p === undefined) === (c === undefined)) return undefined;
  const missing = p === undefined ? PRICE_OPTION_KEYS.prompt : PRICE_OPTION_KEYS.completion;
  return {
    path: `policyOptions.${missing}`,
    message: 'set the prompt and the completion price together',
  };
}

/** The estimated cost in US dollars: uncached prompt, cached prompt and completion tokens. */
export function costOf(usage: Pick<TokenUsage, 'prompt' | 'completion' | 'cached'>, p: TokenPrice) {
  const cached = Math.min(usage.cached, usage.prompt);
  return (
    ((usage.prompt - cached) * p.prompt +
      cached * (p.cached ?? p.prompt) +
      usage.completion * p.completion) /
    1_000_000
  );
}

/** What the run page and the episode page show of a run's LLM use (runs.llm). */
export const RunLlmReportSchema = z.object({
  /** Tokens of the run's finished episodes; episodes: how many reported any. */
  usage: TokenUsageSchema.omit({ requests: true }).extend({ episodes: Count }),
  /** Tokens of the steps that never reached the environment (bpe meta-actions), and of thinks. */
  meta: TokenUsageSchema.omit({ requests: true }).extend({ steps: Count }),
  think: TokenUsageSchema.omit({ requests: true }).extend({ steps: Count }),
  price: TokenPriceSchema.nullable(),
  /** Where the price came from: the run's policy options, the server's configuration, or none. */
  priceSource: z.enum(['run', 'config', 'none']),
  cost: z.number().nullable(),
  /** Finished episodes by the mode they ended in, and why (most frequent first). */
  modes: z.array(
    z.object({
      requested: z.enum(LLM_MODES),
      mode: z.enum(SPOKEN_MODES),
      reason: z.string().nullable(),
      episodes: Count,
    }),
  ),
});
export type RunLlmReport = z.infer<typeof RunLlmReportSchema>;

/** One sentence on which mode a run used and why, from its episodes' reports. */
export function modeSentence(modes: RunLlmReport['modes']): string | null {
  if (modes.length === 0) return null;
  const total = modes.reduce((n, m) => n + m.episodes, 0);
  const react = modes.filter((m) => m.mode === 'react');
  const requested = modes[0]?.requested ?? 'auto';
  const reacted = react.reduce((n, m) => n + m.episodes, 0);
  const of = (n: number) =>
    n === total
      ? total === 1
        ? 'its episode'
        : `all ${total} episodes`
      : `${n} of ${total} episodes`;
  if (requested !== 'auto') return `Mode ${requested}, as the run asked (${of(total)}).`;
  if (reacted === 0) return `Mode auto stayed on tool calls (${of(total)}).`;
  const why = react.find((m) => m.reason)?.reason;
  return `Mode auto fell back to ReAct text for ${of(reacted)}${why ? `: ${why}` : ''}.`;
}
