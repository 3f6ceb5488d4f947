// The `openai:<model>` policy's options and their check, apart from the registry's part
// (openai-policy.ts) and the session (openai.ts), which both read them.
import { z } from 'zod';
import type { Json } from '../../bridges/core/types.ts';
import { problemsOf } from '../../contracts/issues.ts';
import { LlmPolicyOptionsSchema, pricePairProblem } from '../../contracts/llm.ts';

/** Settings in PolicyContext.options; anything unset falls back to config(). */
export const OpenAIOptionsSchema = LlmPolicyOptionsSchema.extend({
  baseUrl: z.string().url().optional(),
  apiKey: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Retries after the first attempt for network errors, 408/409 and 5xx (429s: rateLimitPatienceMs). */
  maxRetries: z.number().int().min(0).max(10).default(4),
  /**
   * How long an episode waits out its endpoint's rate limit (429s back off per endpoint, shared by
   * every episode of the process: llm-gate.ts) before it ends with an infra error.
   */
  rateLimitPatienceMs: z.number().int().min(0).default(600_000),
  /** Exponential backoff base; a server's retry-after(-ms) header wins, capped at retryMaxMs. */
  retryBaseMs: z.number().int().min(0).default(500),
  retryMaxMs: z.number().int().min(0).default(10_000),
  timeoutMs: z.number().int().min(1).default(60_000),
  toolChoice: z.enum(['auto', 'required']).default('auto'),
  maxTokens: z.number().int().min(1).optional(),
  /** Append the admissible commands (info.admissibleCommands) to each observation. */
  showAdmissible: z.boolean().default(true),
  /** Skill texts (or tags) to include in the system prompt (EvoHarness experience). */
  skills: z.array(z.string()).default([]),
  systemPrompt: z.string().optional(),
  /**
   * Send the policy seed as the request's `seed` (OpenAI, vLLM, Ollama honour it): G policy seeds of
   * a GRPO group then sample differently, and a run can be replayed. Off for an endpoint that
   * refuses the field.
   */
  sendSeed: z.boolean().default(true),
});
export type OpenAIOptions = z.infer<typeof OpenAIOptionsSchema>;

/** The policy options' problems, one sentence each with its key (none: fine). */
export function openaiOptionProblems(options: Record<string, Json> | undefined): string[] {
  const parsed = OpenAIOptionsSchema.safeParse(options ?? {});
  const problems = parsed.success
    ? [pricePairProblem(options)].filter((p) => p !== undefined)
    : problemsOf(parsed.error).map((p) => ({ ...p, path: `policyOptions.${p.path}` }));
  return problems.map((p) => `${p.path}: ${p.message}.`);
}
