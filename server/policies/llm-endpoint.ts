// What every caller of an OpenAI-compatible endpoint needs beside the SDK (the openai policy, the
// rig's llm designer, the skill extractor): the server's own words in errors, whether an error
// means "this endpoint does not do tool calling", and the usage and reasoning of a reply.
//
// The SDK (6.x) reads an error body only in OpenAI's shape `{"error":{…}}`; vLLM answers
// `{"object":"error","message":…}` and others `{"detail":…}` or `{"error":"…"}`, which the SDK turns
// into "400 status code (no body)". `llmFetch` rewrites such bodies into OpenAI's shape before the
// SDK reads them, so every error it raises carries the message the server sent.
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { TokenUsage } from '../../contracts/llm.ts';
import { capText } from '../../contracts/text.ts';
import { httpFetch } from './http-fetch.ts';

/** The largest server message kept in an error (a proxy's HTML page is cut). */
const MAX_SERVER_MESSAGE = 2000;

/**
 * An error body in OpenAI's shape, or undefined when it already is in that shape (or is not JSON:
 * the SDK then shows the text itself).
 */
export function normalizeErrorBody(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return JSON.stringify({ error: { message: capText(text, MAX_SERVER_MESSAGE) } });
  }
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'object' && b.error !== null) return undefined;
  const str = (v: unknown) =>
    typeof v === 'string' ? v : v === undefined || v === null ? undefined : JSON.stringify(v);
  const message =
    (typeof b.error === 'string' ? b.error : undefined) ??
    str(b.message) ??
    str(b.detail) ??
    capText(text, MAX_SERVER_MESSAGE);
  return JSON.stringify({
    error: {
      message: capText(message, MAX_SERVER_MESSAGE),
      ...(typeof b.type === 'string' ? { type: b.type } : {}),
      ...(b.code !== undefined ? { code: b.code } : {}),
      ...(b.param !== undefined ? { param: b.param } : {}),
    },
  });
}

/** `fetch` for the SDK over `send`: error bodies of any common shape reach it as OpenAI's. */
export const llmFetch = (send: typeof fetch = httpFetch) =>
  async function llmFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const res = await send(input, init);
    if (res.ok) return res;
    const text = await res.text();
    const fixed = normalizeErrorBody(text);
    const headers = new Headers(res.headers);
    // The body is decoded text now; its old length and encoding no longer describe it.
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (fixed !== undefined) headers.set('content-type', 'application/json');
    return new Response(fixed ?? text, { status: res.status, statusText: res.statusText, headers });
  };

export interface LlmClientOptions {
  baseURL: string;
  apiKey?: string | undefined;
  timeoutMs?: number;
  maxRetries?: number;
  /** The fetch under the SDK (tests hand in a fake); default keep-alive node:http (http-fetch.ts). */
  fetch?: typeof fetch;
}

/** An SDK client whose errors carry the server's words. Local servers need no key; the SDK wants one. */
export function llmClient(o: LlmClientOptions): OpenAI {
  return new OpenAI({
    baseURL: o.baseURL,
    apiKey: o.apiKey ?? 'not-needed',
    maxRetries: o.maxRetries ?? 0,
    ...(o.timeoutMs !== undefined ? { timeout: o.timeoutMs } : {}),
    fetch: llmFetch(o.fetch),
  });
}

/** The message of an SDK error without the status the SDK puts in front of it. */
function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const m = error.message;
  const status = String(error.status ?? '');
  return status && m.startsWith(`${status} `) ? m.slice(status.length + 1) : m;
}

/** One line for an endpoint error: `HTTP 400: <the server's message>`, or why it was not reached. */
export function describeLlmError(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionError)
    return `cannot reach the endpoint (${error.message})`;
  if (error instanceof OpenAI.APIError)
    return `HTTP ${error.status ?? '?'}: ${serverMessage(error)}`;
  return error instanceof Error ? error.message : String(error);
}

const TOOLS_WORDS = /\btool[_ -]?choice\b|\btool[_ -]?call|\btools?\b|\bfunction[_ -]?call/i;

/**
 * The endpoint refused a request because of its tools (vLLM without --enable-auto-tool-choice,
 * an Ollama model without tool support, llama.cpp without --jinja): a client error, or a server
 * error, whose message names tool choice or tools.
 */
export function refusesTools(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return false;
  if (error instanceof OpenAI.APIConnectionError) return false;
  const s = error.status;
  if (s === 401 || s === 403 || s === 404 || s === 408 || s === 409 || s === 429) return false;
  return s >= 400 && TOOLS_WORDS.test(serverMessage(error));
}

const UsageWire = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens: z.number().optional(),
});

const count = (n: number | null | undefined) =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;

/** A completion's `usage` as TokenUsage (one request), or undefined when the server sent none. */
export function usageOf(completion: Pick<ChatCompletion, 'usage'>): TokenUsage | undefined {
  const parsed = UsageWire.safeParse(completion.usage);
  if (!parsed.success || completion.usage == null) return undefined;
  const u = parsed.data;
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  return {
    prompt: count(u.prompt_tokens),
    completion: count(u.completion_tokens),
    cached: count(u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens),
    ...(typeof reasoning === 'number' ? { reasoning: count(reasoning) } : {}),
    requests: 1,
  };
}

const THINK_BLOCK = /<(think|thinking)>([\s\S]*?)<\/\1>/gi;

/**
 * A reply split into what it says and how it reasoned: `reasoning_content` (vLLM's and SGLang's
 * reasoning parsers, DeepSeek) or `reasoning`, and `<think>…</think>` blocks in the content —
 * also a closing tag alone (the chat template opened the block) and an opening tag the reply was
 * cut off after.
 */
export function splitReasoning(message: Pick<ChatCompletionMessage, 'content'>): {
  content: string;
  reasoning?: string;
} {
  const parts: string[] = [];
  const extra = message as unknown as Record<string, unknown>;
  for (const key of ['reasoning_content', 'reasoning', 'thinking']) {
    const v = extra[key];
    if (typeof v === 'string' && v.trim()) {
      parts.push(v.trim());
      break;
    }
  }
  let text = typeof message.content === 'string' ? message.content : '';
  text = text.replace(THINK_BLOCK, (_m, _tag, inner: string) => {
    if (inner.trim()) parts.push(inner.trim());
    return '';
  });
  const close = /<\/(think|thinking)>/i.exec(text);
  if (close) {
    const before = text.slice(0, close.index).trim();
    if (before) parts.unshift(before);
    text = text.slice(close.index + close[0].length);
  }
  const open = /<(think|thinking)>/i.exec(text);
  if (open) {
    const after = text.slice(open.index + open[0].length).trim();
    if (after) parts.push(after);
    text = text.slice(0, open.index);
  }
  const reasoning = parts.join('\n\n');
  return { content: text.trim(), ...(reasoning ? { reasoning } : {}) };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The arguments of `tool` written as JSON in a reply's text (what a model without tool calling
 * sends): in `<tool_call>…</tool_call>`, a ```json block, or the outermost `{…}`; a wrapper
 * `{"name": tool, "arguments": {…}}` is taken off. Undefined when the text holds no JSON object.
 */
export function jsonArgsInText(text: string, tool: string): Record<string, unknown> | undefined {
  const candidates = [
    /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/i.exec(text)?.[1],
    ...[...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/gi)].map((m) => m[1]),
    text.includes('{') ? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1) : undefined,
  ];
  for (const c of candidates) {
    const obj = c === undefined ? undefined : parseObject(c.trim());
    if (!obj) continue;
    const fn =
      typeof obj.function === 'object' && obj.function !== null
        ? (obj.function as Record<string, unknown>)
        : obj;
    if (fn.name === tool) {
      const args = fn.arguments ?? fn.parameters ?? fn.args;
      if (typeof args === 'string') return parseObject(args);
      if (typeof args === 'object' && args !== null && !Array.isArray(args))
        return args as Record<string, unknown>;
    }
    return obj;
  }
  return undefined;
}

/** The system prompt's addition when a forced tool call is asked for as JSON in text instead. */
export function jsonAnswerInstruction(tool: {
  name: string;
  description?: string | undefined;
  parameters?: unknown;
}): string {
  return `This endpoint has no tool calling. Answer with ONE JSON object only (no prose, no code fence needed): the arguments of ${tool.name}${tool.description ? ` — ${tool.description}` : ''}. The object must match this JSON Schema:\n${JSON.stringify(tool.parameters ?? {})}`;
}
