// `openai:<model>`: any OpenAI-compatible chat-completions endpoint with tool calling (vLLM, SGLang,
// Ollama, OpenAI, Gemini's compatible endpoint). The bridge's tools go in as function tools, the goal
// and observations as messages. What the model gets wrong is the agent's fault (an invalid action);
// what the network or server gets wrong is not (retried, then PolicyInfraError).

import OpenAI from 'openai';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { JsonObject, Observation, StepInfo } from '../../bridges/core/types.ts';
import { firstIssue } from '../../contracts/issues.ts';
import { config } from '../config.ts';
import {
  type AgentSession,
  type Policy,
  type PolicyContext,
  type PolicyDecision,
  type PolicyDescriptor,
  PolicyInfraError,
} from './types.ts';

/** Settings in PolicyContext.options; anything unset falls back to config(). */
export const OpenAIOptionsSchema = z.object({
  baseUrl: z.string().url().optional(),
  apiKey: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Retries after the first attempt for network errors, 408/409/429 and 5xx. */
  maxRetries: z.number().int().min(0).max(10).default(4),
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

export function openaiDescriptor(model: string): PolicyDescriptor {
  return {
    id: `openai:${model}`,
    kind: 'openai',
    description: `LLM agent '${model}' on an OpenAI-compatible chat-completions endpoint with tool calling.`,
  };
}

export function openaiPolicy(model: string): Policy {
  return {
    descriptor: openaiDescriptor(model),
    async start(context: PolicyContext): Promise<AgentSession> {
      const parsed = OpenAIOptionsSchema.safeParse(context.options ?? {});
      if (!parsed.success) {
        throw new PolicyInfraError(`openai policy options: ${firstIssue(parsed.error)}`);
      }
      return new OpenAISession(model, context, parsed.data);
    },
  };
}

class OpenAISession implements AgentSession {
  private readonly client: OpenAI;
  private readonly messages: ChatCompletionMessageParam[] = [];
  private readonly tools: ChatCompletionTool[];
  private readonly toolNames: Set<string>;
  private readonly temperature: number;
  /** Tool calls of the last assistant turn still waiting for their tool message. */
  private pending: { id: string; reply: string | undefined }[] = [];

  constructor(
    private readonly model: string,
    private readonly context: PolicyContext,
    private readonly options: OpenAIOptions,
  ) {
    const cfg = config();
    const baseURL = options.baseUrl ?? cfg.OPENAI_BASE_URL;
    if (!baseURL)
      throw new PolicyInfraError(
        'openai policy: no base URL (set OPENAI_BASE_URL or options.baseUrl)',
      );
    // Local servers (vLLM, Ollama) need no key, but the client insists on one.
    this.client = new OpenAI({
      baseURL,
      apiKey: options.apiKey ?? cfg.OPENAI_API_KEY ?? 'not-needed',
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
    this.temperature = options.temperature ?? cfg.OPENAI_TEMPERATURE;
    this.tools = context.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    this.toolNames = new Set(context.tools.map((t) => t.name));
    this.messages.push({ role: 'system', content: options.systemPrompt ?? this.systemPrompt() });
  }

  private systemPrompt(): string {
    const { bridge, task, textTool, maxSteps } = this.context;
    const lines = [
      `You are an agent acting in the '${bridge}' environment. Each turn, call exactly one tool; its result is the next observation.`,
      `You have at most ${maxSteps} actions.`,
      `Your task: ${task.goal}`,
    ];
    if (textTool)
      lines.push(
        `Type environment commands through the '${textTool.name}' tool's '${textTool.arg}' argument.`,
      );
    if (this.options.skills.length > 0) {
      lines.push(
        'Skills learned from earlier episodes:',
        ...this.options.skills.map((s) => `- ${s}`),
      );
    }
    return lines.join('\n');
  }

  private render(observation: Observation, info: StepInfo): string {
    const admissible = info.admissibleCommands;
    if (this.options.showAdmissible && Array.isArray(admissible) && admissible.length > 0) {
      return `${observation.text}\n\nAdmissible commands: ${admissible.join(', ')}`;
    }
    return observation.text;
  }

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    const text = this.render(observation, info);
    if (this.pending.length > 0) {
      // Every tool call of the previous turn gets its tool message, or the protocol is broken.
      for (const p of this.pending) {
        this.messages.push({ role: 'tool', tool_call_id: p.id, content: p.reply ?? text });
      }
      this.pending = [];
    } else {
      this.messages.push({ role: 'user', content: text });
    }

    const completion = await this.complete();
    const message = completion.choices[0]?.message;
    if (!message) return { kind: 'invalid', raw: '', reason: 'the reply had no message' };
    const calls = message.tool_calls ?? [];
    const content = typeof message.content === 'string' ? message.content : '';
    // Echo only the protocol fields: some compatible servers reject extras such as `refusal`.
    this.messages.push({
      role: 'assistant',
      content: content || null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
    if (calls.length === 0) {
      return {
        kind: 'invalid',
        raw: content,
        reason: 'no tool call: answer with exactly one tool call',
      };
    }
    const [first, ...rest] = calls;
    this.pending = calls.map((c) => ({ id: c.id, reply: undefined }));
    for (const [k, c] of rest.entries()) {
      const p = this.pending[k + 1];
      if (p)
        p.reply = `Ignored: only the first tool call of a turn is executed (this was ${c.type === 'function' ? c.function.name : c.type}).`;
    }
    if (first?.type !== 'function') {
      return {
        kind: 'invalid',
        raw: JSON.stringify(first ?? null),
        reason: 'not a function tool call',
      };
    }
    const { name, arguments: rawArgs } = first.function;
    const raw = `${name}(${rawArgs})`;
    if (!this.toolNames.has(name)) {
      return {
        kind: 'invalid',
        raw,
        reason: `unknown tool '${name}'; available: ${[...this.toolNames].join(', ')}`,
      };
    }
    let args: unknown;
    try {
      args = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
    } catch (error) {
      return {
        kind: 'invalid',
        raw,
        reason: `arguments are not valid JSON (${(error as Error).message})`,
      };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { kind: 'invalid', raw, reason: 'arguments must be a JSON object' };
    }
    return {
      kind: 'act',
      action: { name, args: args as JsonObject },
      ...(content ? { note: content } : {}),
    };
  }

  private async complete(): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    const { maxRetries, retryBaseMs, retryMaxMs } = this.options;
    let lastError: unknown;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      try {
        return await this.client.chat.completions.create({
          model: this.model,
          messages: this.messages,
          tools: this.tools,
          tool_choice: this.options.toolChoice satisfies ChatCompletionToolChoiceOption,
          temperature: this.temperature,
          ...(this.options.sendSeed ? { seed: this.context.seed } : {}),
          ...(this.options.maxTokens ? { max_tokens: this.options.maxTokens } : {}),
        });
      } catch (error) {
        lastError = error;
        if (!retryable(error) || attempt === maxRetries) break;
        await sleep(backoff(error, attempt, retryBaseMs, retryMaxMs));
      }
    }
    throw new PolicyInfraError(`openai:${this.model}: ${describeError(lastError)}`, {
      cause: lastError,
    });
  }
}

function retryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionError) return true;
  if (error instanceof OpenAI.APIError) {
    const s = error.status;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

function backoff(error: unknown, attempt: number, base: number, max: number): number {
  if (error instanceof OpenAI.APIError && error.headers) {
    const ms = Number(error.headers.get('retry-after-ms'));
    if (Number.isFinite(ms) && ms >= 0 && error.headers.has('retry-after-ms'))
      return Math.min(ms, max);
    const s = Number(error.headers.get('retry-after'));
    if (Number.isFinite(s) && s >= 0 && error.headers.has('retry-after'))
      return Math.min(s * 1000, max);
  }
  return Math.min(base * 2 ** attempt, max);
}

function describeError(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionError)
    return `cannot reach the endpoint (${error.message})`;
  if (error instanceof OpenAI.APIError) return `HTTP ${error.status ?? '?'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
