// The LLM settings of the launch form, as plain functions: what the fields hold, the policy options
// they become (contracts/llm.ts LlmPolicyOptionsSchema, the server's own check), and their problems.

import { type Problem, problemsOf } from '../../contracts/issues.ts';
import type { Json } from '../../contracts/json.ts';
import {
  type LlmModeOption,
  LlmPolicyOptionsSchema,
  PRICE_OPTION_KEYS,
  pricePairProblem,
} from '../../contracts/llm.ts';

export interface LlmForm {
  mode: LlmModeOption;
  think: 'step' | 'free';
  keepReasoning: boolean;
  /** US dollars per million tokens, as typed ('' = not set). */
  pricePrompt: string;
  priceCompletion: string;
  priceCached: string;
}

export const DEFAULT_LLM_FORM: LlmForm = {
  mode: 'auto',
  think: 'step',
  keepReasoning: false,
  pricePrompt: '',
  priceCompletion: '',
  priceCached: '',
};

const price = (text: string): number | undefined => {
  const t = text.trim();
  return t === '' ? undefined : Number(t);
};

/** The policy options the fields set: the mode always, the rest only when they differ. */
export function llmPolicyOptions(f: LlmForm): Record<string, Json> {
  const out: Record<string, Json> = { mode: f.mode };
  if (f.think !== 'step') out.think = f.think;
  if (f.keepReasoning) out.keepReasoning = true;
  const prices = [
    [PRICE_OPTION_KEYS.prompt, f.pricePrompt],
    [PRICE_OPTION_KEYS.completion, f.priceCompletion],
    [PRICE_OPTION_KEYS.cached, f.priceCached],
  ] as const;
  for (const [key, text] of prices) {
    const v = price(text);
    // A price that is not a number stays as typed, so the check names that field.
    if (v !== undefined) out[key] = Number.isFinite(v) ? v : text;
  }
  return out;
}

/** The options' problems, each at its `policyOptions.<key>` path (none: they may be sent). */
export function llmOptionProblems(options: Record<string, Json>): Problem[] {
  const parsed = LlmPolicyOptionsSchema.safeParse(options);
  if (parsed.success) {
    const pair = pricePairProblem(options);
    return pair ? [pair] : [];
  }
  return problemsOf(parsed.error).map((p) => ({ ...p, path: `policyOptions.${p.path}` }));
}
