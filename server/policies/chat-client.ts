// A thin chat-completions client for the openai policy's hot path: one POST of a JSON body the
// caller has already serialised, the reply read whole and parsed once. Requests go through one
// undici Agent (keep-alive connections per origin, as many as requests in flight) shared by every
// episode of the process, http and https alike. It stands in for the SDK's
// `chat.completions.create`, which per request builds headers through undici's Headers, log
// details and a fetch Response; at hundreds of episodes in flight that was a sizable part of a
// step's CPU (bench/llm-bound.ts). Errors are the SDK's own classes, built as the SDK builds them
// (status, body in OpenAI's shape after normalizeErrorBody, headers), so describeLlmError,
// refusesTools, the retries and the rate-limit gate read them unchanged (chat-client.test.ts
// compares them).
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import { Agent } from 'undici';
import { normalizeErrorBody } from './llm-endpoint.ts';

/**
 * Keep-alive connections, unbounded per origin (`connections: null`, one request at a time on
 * each): an episode in flight never waits for another's connection. undici's own header and body
 * timeouts are off per request; `timeoutMs` bounds the whole exchange instead.
 */
const agent = new Agent({ connections: null, pipelining: 1 });

export interface ChatClientOptions {
  baseURL: string;
  apiKey?: string | undefined;
  /** The whole request, connection to last byte of the reply (the SDK's `timeout`). */
  timeoutMs: number;
}

/** The SDK's `safeJSON`: the parsed text, or undefined when it is not JSON. */
function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The SDK's test for a timeout among connection errors. */
const looksTimedOut = (error: Error) =>
  /timed? ?out/i.test(String(error) + ('cause' in error ? String(error.cause) : ''));

export class ChatClient {
  private readonly origin: string;
  private readonly path: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(o: ChatClientOptions) {
    // As the SDK joins base URL and path: one slash between them.
    const base = o.baseURL;
    const url = new URL(`${base}${base.endsWith('/') ? '' : '/'}chat/completions`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`unsupported endpoint protocol ${url.protocol}`);
    this.origin = url.origin;
    this.path = `${url.pathname}${url.search}`;
    this.timeoutMs = o.timeoutMs;
    // What the SDK sends beside its x-stainless-* telemetry (local servers need no key; it wants one).
    this.headers = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': `OpenAI/JS ${VERSION}`,
      authorization: `Bearer ${o.apiKey ?? 'not-needed'}`,
      ...(process.env.OPENAI_ORG_ID ? { 'openai-organization': process.env.OPENAI_ORG_ID } : {}),
      ...(process.env.OPENAI_PROJECT_ID ? { 'openai-project': process.env.OPENAI_PROJECT_ID } : {}),
    };
  }

  /**
   * POSTs `body` (a chat-completions request as JSON text) and resolves with the completion.
   * Rejects with the SDK's APIError subclass for an HTTP error, APIConnectionTimeoutError after
   * `timeoutMs`, APIConnectionError when the endpoint cannot be reached or the reply is cut short.
   */
  async create(body: string): Promise<ChatCompletion> {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new OpenAI.APIConnectionTimeoutError()),
      this.timeoutMs,
    );
    let status: number;
    let text: string;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const reply = await agent.request({
        origin: this.origin,
        path: this.path,
        method: 'POST',
        headers: this.headers,
        body,
        signal: abort.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      status = reply.statusCode;
      headers = reply.headers;
      text = await reply.body.text();
    } catch (error) {
      if (error instanceof OpenAI.APIError) throw error;
      throw looksTimedOut(error as Error)
        ? new OpenAI.APIConnectionTimeoutError()
        : new OpenAI.APIConnectionError({ cause: error as Error });
    } finally {
      clearTimeout(timer);
    }
    if (status >= 200 && status < 300) return JSON.parse(text) as ChatCompletion;
    throw statusError(status, text, headers);
  }
}

/** An HTTP error as the SDK raises it, the server's body first put in OpenAI's shape. */
function statusError(
  status: number,
  text: string,
  raw: Record<string, string | string[] | undefined>,
): InstanceType<typeof OpenAI.APIError> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  const fixed = normalizeErrorBody(text);
  const json = safeJSON(fixed ?? text);
  return OpenAI.APIError.generate(
    status,
    json as object | undefined,
    json ? undefined : (fixed ?? text),
    headers,
  );
}
