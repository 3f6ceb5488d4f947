// `openai:<model>`: any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, llama.cpp, Ollama,
// OpenAI, Gemini's compatible endpoint). Two ways to speak (`mode`):
// * tools — the bridge's tools go in as function tools and each reply is a tool call;
// * react — the tools are described in the system prompt and each reply is ReAct text, read for
//   one action (react.ts), for servers started without a tool-call parser;
// * auto (default) — tools, falling back to react for the rest of the run when the endpoint
//   refuses tools or the model answers with a plain action line instead of a tool call.
// What the model gets wrong is the agent's fault (an invalid action); what the network or server gets
// wrong is not (retried, then PolicyInfraError with the server's own words). Each decision carries
// the request's token usage and the reply's reasoning (contracts/llm.ts).
// This module is the session, loaded with the SDK (its error classes) when an episode starts one;
// requests go through chat-client.ts, not the SDK's client, and their bodies are serialised a turn
// at a time (requestBody). The registry's part (descriptor) is openai-policy.ts, its options
// openai-options.ts.

import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { Action, JsonObject, Observation, StepInfo } from '../../bridges/core/types.ts';
import type { SpokenMode, StepLlm, TokenUsage } from '../../contracts/llm.ts';
import { capText } from '../../contracts/text.ts';
import { config } from '../config.ts';
import { ChatClient, type ChatClientOptions } from './chat-client.ts';
import { describeLlmError, refusesTools, splitReasoning, usageOf } from './llm-endpoint.ts';
import { type EndpointGate, gateFor, throughGate } from './llm-gate.ts';
import { knownFallback, modeKey, shareFallback } from './llm-mode.ts';
import type { OpenAIOptions } from './openai-options.ts';
import {
  actionLineOf,
  describeTools,
  fewShotExamples,
  parseReply,
  type ReactParse,
  thinkInstruction,
} from './react.ts';
import {
  type AgentSession,
  type PolicyContext,
  type PolicyDecision,
  PolicyInfraError,
  type PolicyReport,
} from './types.ts';

const clients = new Map<string, ChatClient>();

/** One client per endpoint and settings: episodes at once share it instead of building their own. */
function sharedClient(o: ChatClientOptions): ChatClient {
  const key = JSON.stringify([o.baseURL, o.apiKey ?? '', o.timeoutMs]);
  let client = clients.get(key);
  if (!client) {
    client = new ChatClient(o);
    clients.set(key, client);
  }
  return client;
}

/** `,"key":<value as JSON>`, or nothing for undefined (as JSON.stringify leaves such a key out). */
const field = (key: string, value: unknown) =>
  value === undefined ? '' : `,${JSON.stringify(key)}:${JSON.stringify(value)}`;

/** The endpoint refused the request's tools: auto mode speaks ReAct instead. */
class ToolsRefused extends Error {}

/** One exchange: what the agent was shown, and how the model answered. */
interface Turn {
  observation: string;
  reply?: {
    /** The reply's text without its reasoning. */
    content: string;
    reasoning?: string;
    /** Tools mode: the calls as the server sent them (echoed back verbatim). */
    toolCalls?: ChatCompletionMessageToolCall[];
    /** The action taken, to re-tell a tools-mode turn in ReAct text after a fallback. */
    action?: Action;
  };
}

const thinkAction = (thought: string, textTool: PolicyContext['textTool']): Action =>
  textTool
    ? { name: textTool.name, args: { [textTool.arg]: `think: ${thought}` } }
    : { name: 'think', args: { thought } };

export class OpenAISession implements AgentSession {
  private readonly client: ChatClient;
  private readonly gate: EndpointGate;
  private readonly tools: ChatCompletionTool[];
  private readonly toolNames: Set<string>;
  private readonly temperature: number;
  private readonly turns: Turn[] = [];
  private readonly memoKey: string | undefined;
  private mode: SpokenMode;
  private reason: string | null = null;
  private switchedAt: number | null = null;
  private inherited = false;
  private readonly promptsDir: string | undefined;
  /** The tools as sent, serialised once. */
  private toolsJson: string | undefined;
  /**
   * Per mode, the request's messages serialised so far: the system message, and each finished
   * turn's messages (a turn is finished once the next one began: its reply no longer changes).
   */
  private readonly wire: Partial<Record<SpokenMode, { system: string; turns: string[] }>> = {};

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
    this.client = sharedClient({
      baseURL,
      apiKey: options.apiKey ?? cfg.OPENAI_API_KEY,
      timeoutMs: options.timeoutMs,
    });
    this.gate = gateFor(baseURL, model, {
      baseMs: options.retryBaseMs,
      maxMs: Math.max(options.retryMaxMs, 60_000),
    });
    this.promptsDir = cfg.REACT_PROMPTS_DIR;
    this.temperature = options.temperature ?? cfg.OPENAI_TEMPERATURE;
    this.tools = context.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    this.toolNames = new Set(context.tools.map((t) => t.name));
    this.memoKey = options.mode === 'auto' ? modeKey(context.runId, baseURL, model) : undefined;
    const known = knownFallback(this.memoKey);
    this.mode = options.mode === 'react' || known ? 'react' : 'tools';
    if (known) {
      this.reason = known.reason;
      this.inherited = true;
    }
  }

  report(): PolicyReport {
    return {
      llm: {
        model: this.model,
        requested: this.options.mode,
        mode: this.mode,
        reason: this.reason,
        switchedAt: this.switchedAt,
        inherited: this.inherited,
      },
    };
  }

  /** Auto mode: ReAct text from now on, for this episode and (through the memo) the run. */
  private fallBack(reason: string): void {
    this.mode = 'react';
    this.reason = reason;
    this.switchedAt = this.turns.length - 1;
    shareFallback(this.memoKey, { reason });
  }

  // ─────────────────────────────── prompts ───────────────────────────────

  private basePrompt(mode: SpokenMode): string[] {
    const { bridge, task, textTool, maxSteps } = this.context;
    const lines = [
      mode === 'tools'
        ? `You are an agent acting in the '${bridge}' environment. Each turn, call exactly one tool; its result is the next observation.`
        : `You are an agent acting in the '${bridge}' environment. Each reply is one action; the environment's answer is the next message.`,
      `You have at most ${maxSteps} actions.`,
      `Your task: ${task.goal}`,
    ];
    if (mode === 'tools' && textTool)
      lines.push(
        `Type environment commands through the '${textTool.name}' tool's '${textTool.arg}' argument.`,
      );
    if (this.options.skills.length > 0) {
      lines.push(
        'Skills learned from earlier episodes:',
        ...this.options.skills.map((s) => `- ${s}`),
      );
    }
    return lines;
  }

  private systemPrompt(mode: SpokenMode): string {
    const base = this.options.systemPrompt ?? this.basePrompt(mode).join('\n');
    if (mode === 'tools') return base;
    const { fewShot } = this.options;
    const examples =
      fewShot === true
        ? fewShotExamples(this.context.bridge, this.promptsDir)
        : fewShot === false
          ? undefined
          : fewShot;
    return [
      base,
      '',
      describeTools(this.context.tools, this.context.textTool),
      thinkInstruction({ cost: this.options.think }),
      ...(examples
        ? ['', 'Examples of solved tasks (other rooms, other tasks):', '', examples]
        : []),
    ].join('\n');
  }

  private render(observation: Observation, info: StepInfo): string {
    const admissible = info.admissibleCommands;
    if (this.options.showAdmissible && Array.isArray(admissible) && admissible.length > 0) {
      return `${observation.text}\n\nAdmissible commands: ${admissible.join(', ')}`;
    }
    return observation.text;
  }

  /** What an assistant turn says when sent back: its text, its reasoning only when configured. */
  private echo(reply: NonNullable<Turn['reply']>, mode: SpokenMode): string {
    let text = reply.content;
    if (mode === 'react' && reply.toolCalls && reply.action) {
      text = [text, actionLineOf(reply.action, this.context.textTool)].filter(Boolean).join('\n');
    }
    if (this.options.keepReasoning && reply.reasoning) {
      text = `<think>\n${reply.reasoning}\n</think>\n${text}`;
    }
    return text;
  }

  /** The conversation so far, told in the mode of the next request. */
  messages(mode: SpokenMode): ChatCompletionMessageParam[] {
    return [
      { role: 'system', content: this.systemPrompt(mode) },
      ...this.turns.flatMap((_, i) => this.turnMessages(i, mode)),
    ];
  }

  /** The messages turn `i` adds to the conversation, told in `mode`. */
  private turnMessages(i: number, mode: SpokenMode): ChatCompletionMessageParam[] {
    const turn = this.turns[i] as Turn;
    const out: ChatCompletionMessageParam[] = [];
    const before = this.turns[i - 1]?.reply?.toolCalls;
    const calls = mode === 'tools' && before && before.length > 0 ? before : [];
    if (calls.length > 0) {
      // Every tool call of the previous turn gets its tool message, or the protocol is broken.
      for (const [k, c] of calls.entries()) {
        out.push({
          role: 'tool',
          tool_call_id: c.id,
          content:
            k === 0
              ? turn.observation
              : `Ignored: only the first tool call of a turn is executed (this was ${c.type === 'function' ? c.function.name : c.type}).`,
        });
      }
    } else {
      out.push({ role: 'user', content: turn.observation });
    }
    if (!turn.reply) return out;
    const content = this.echo(turn.reply, mode);
    if (mode === 'tools' && turn.reply.toolCalls && turn.reply.toolCalls.length > 0) {
      // Echo only the protocol fields: some compatible servers reject extras such as `refusal`.
      out.push({ role: 'assistant', content: content || null, tool_calls: turn.reply.toolCalls });
    } else {
      out.push({ role: 'assistant', content: content || (mode === 'tools' ? null : '…') });
    }
    return out;
  }

  /**
   * The request body as JSON text, byte for byte what JSON.stringify makes of
   * `{model, messages: this.messages(mode), tools, tool_choice, temperature, seed, max_tokens}`;
   * the system message, the tools and the finished turns are serialised once, not at every step.
   */
  requestBody(mode: SpokenMode): string {
    let wire = this.wire[mode];
    if (!wire) {
      wire = {
        system: JSON.stringify({ role: 'system', content: this.systemPrompt(mode) }),
        turns: [],
      };
      this.wire[mode] = wire;
    }
    let messages = wire.system;
    const last = this.turns.length - 1;
    for (let i = 0; i <= last; i++) {
      let part = wire.turns[i];
      if (part === undefined) {
        part = this.turnMessages(i, mode)
          .map((m) => JSON.stringify(m))
          .join(',');
        if (i < last) wire.turns[i] = part;
      }
      messages += `,${part}`;
    }
    let body = `{"model":${JSON.stringify(this.model)},"messages":[${messages}]`;
    if (mode === 'tools') {
      this.toolsJson ??= JSON.stringify(this.tools);
      body += `,"tools":${this.toolsJson}${field('tool_choice', this.options.toolChoice satisfies ChatCompletionToolChoiceOption)}`;
    }
    body += field('temperature', this.temperature);
    if (this.options.sendSeed) body += field('seed', this.context.seed);
    if (this.options.maxTokens) body += field('max_tokens', this.options.maxTokens);
    return `${body}}`;
  }

  // ─────────────────────────────── acting ───────────────────────────────

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    const turn: Turn = { observation: this.render(observation, info) };
    this.turns.push(turn);
    const { completion, mode, usage } = await this.request();
    const message = completion.choices[0]?.message;
    const split = message ? splitReasoning(message) : { content: '' };
    const llm = (extra: Partial<StepLlm> = {}): StepLlm => ({
      mode,
      ...(usage ? { usage } : {}),
      ...(split.reasoning ? { reasoning: capText(split.reasoning) } : {}),
      ...(split.content ? { reply: capText(split.content) } : {}),
      ...extra,
    });
    if (!message) {
      turn.reply = { content: '' };
      return { kind: 'invalid', raw: '', reason: 'the reply had no message', llm: llm() };
    }
    turn.reply = {
      content: split.content,
      ...(split.reasoning ? { reasoning: split.reasoning } : {}),
    };
    const admissible = Array.isArray(info.admissibleCommands) ? info.admissibleCommands : undefined;
    const parse = () =>
      parseReply(split.content, {
        tools: this.context.tools,
        textTool: this.context.textTool,
        admissible,
      });
    if (mode === 'react') return this.fromText(parse(), split.content, llm);

    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      const read = parse();
      if (
        this.options.mode === 'auto' &&
        ((read.kind === 'action' && read.strong) || read.kind === 'think')
      ) {
        const said = read.kind === 'action' ? read.line : `think: ${read.thought}`;
        this.fallBack(
          `the model answered in text ('${capText(said, 120)}') instead of calling a tool`,
        );
        return this.fromText(read, split.content, llm);
      }
      return {
        kind: 'invalid',
        raw: split.content,
        reason: 'no tool call: answer with exactly one tool call',
        llm: llm(),
      };
    }
    turn.reply.toolCalls = calls;
    return this.fromToolCall(calls, turn, llm);
  }

  private fromText(
    read: ReactParse,
    raw: string,
    llm: (extra?: Partial<StepLlm>) => StepLlm,
  ): PolicyDecision {
    if (read.kind === 'think') {
      return {
        kind: 'meta',
        action: thinkAction(read.thought, this.context.textTool),
        observation: { text: 'OK.' },
        invalid: false,
        meta: { think: true },
        cost: this.options.think === 'free' ? 0 : 1,
        llm: llm({ think: true }),
      };
    }
    if (read.kind === 'action') {
      const last = this.turns.at(-1);
      if (last?.reply) last.reply.action = read.action;
      return { kind: 'act', action: read.action, llm: llm() };
    }
    return { kind: 'invalid', raw, reason: read.reason, llm: llm() };
  }

  private fromToolCall(
    calls: ChatCompletionMessageToolCall[],
    turn: Turn,
    llm: (extra?: Partial<StepLlm>) => StepLlm,
  ): PolicyDecision {
    const first = calls[0];
    if (first?.type !== 'function') {
      return {
        kind: 'invalid',
        raw: JSON.stringify(first ?? null),
        reason: 'not a function tool call',
        llm: llm(),
      };
    }
    const { name, arguments: rawArgs } = first.function;
    const raw = `${name}(${rawArgs})`;
    if (!this.toolNames.has(name)) {
      return {
        kind: 'invalid',
        raw,
        reason: `unknown tool '${name}'; available: ${[...this.toolNames].join(', ')}`,
        llm: llm(),
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
        llm: llm(),
      };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { kind: 'invalid', raw, reason: 'arguments must be a JSON object', llm: llm() };
    }
    const action = { name, args: args as JsonObject };
    if (turn.reply) turn.reply.action = action;
    const content = turn.reply?.content;
    return { kind: 'act', action, ...(content ? { note: content } : {}), llm: llm() };
  }

  /** One completion in the current mode; auto mode falls back to ReAct when tools are refused. */
  private async request(): Promise<{
    completion: ChatCompletion;
    mode: SpokenMode;
    usage: TokenUsage | undefined;
  }> {
    for (;;) {
      const mode = this.mode;
      try {
        const completion = await this.complete(this.requestBody(mode), mode === 'tools');
        return { completion, mode, usage: usageOf(completion) };
      } catch (error) {
        if (!(error instanceof ToolsRefused)) throw error;
        this.fallBack(`the endpoint refused tool calling (${error.message})`);
      }
    }
  }

  private async complete(body: string, tools: boolean): Promise<ChatCompletion> {
    const { maxRetries, retryBaseMs, retryMaxMs } = this.options;
    let lastError: unknown;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      try {
        return await throughGate(this.gate, () => this.client.create(body), {
          runId: this.context.runId,
          patienceMs: this.options.rateLimitPatienceMs,
        });
      } catch (error) {
        lastError = error;
        if (tools && this.options.mode === 'auto' && refusesTools(error)) {
          throw new ToolsRefused(describeLlmError(error));
        }
        if (!retryable(error) || attempt === maxRetries) break;
        await sleep(backoff(error, attempt, retryBaseMs, retryMaxMs));
      }
    }
    throw new PolicyInfraError(`openai:${this.model}: ${describeLlmError(lastError)}`, {
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
