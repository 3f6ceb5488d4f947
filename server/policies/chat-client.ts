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
import { Agent, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
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
  /** undici's options for every request of this client, the body aside. */
  private readonly options: Omit<Dispatcher.DispatchOptions, 'body'>;
  private readonly timeoutMs: number;

  constructor(o: ChatClientOptions) {
    // As the SDK joins base URL and path: one slash between them.
    const base = o.baseURL;
    const url = new URL(`${base}${base.endsWith('/') ? '' : '/'}chat/completions`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`unsupported endpoint protocol ${url.protocol}`);
    this.timeoutMs = o.timeoutMs;
    // What the SDK sends beside its x-stainless-* telemetry (local servers need no key; it wants one).
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': `OpenAI/JS ${VERSION}`,
      authorization: `Bearer ${o.apiKey ?? 'not-needed'}`,
      ...(process.env.OPENAI_ORG_ID ? { 'openai-organization': process.env.OPENAI_ORG_ID } : {}),
      ...(process.env.OPENAI_PROJECT_ID ? { 'openai-project': process.env.OPENAI_PROJECT_ID } : {}),
    };
    this.options = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      headersTimeout: 0,
      bodyTimeout: 0,
    };
  }

  /**
   * POSTs `body` (a chat-completions request as JSON text) and resolves with the completion.
   * Rejects with the SDK's APIError subclass for an HTTP error, APIConnectionTimeoutError after
   * `timeoutMs`, APIConnectionError when the endpoint cannot be reached or the reply is cut short.
   */
  create(body: string): Promise<ChatCompletion> {
    return new Promise<ChatCompletion>((resolve, reject) => {
      agent.dispatch({ ...this.options, body }, new Exchange(resolve, reject, this.timeoutMs));
    });
  }
}

/**
 * One request as an undici dispatch handler: the reply's chunks gathered and read whole at its end.
 * (undici's `request()` would wrap the reply in a Readable stream, an AsyncResource and an
 * AbortSignal listener per request; with hundreds in flight that was most of a step's CPU.)
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly chunks: Buffer[] = [];
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly resolve: (completion: ChatCompletion) => void,
    private readonly reject: (error: Error) => void,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      if (this.settled) return;
      this.settled = true;
      const error = new OpenAI.APIConnectionTimeoutError();
      this.controller?.abort(error);
      reject(error);
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Timed out while waiting for a connection: the request is not sent.
    if (this.settled) controller.abort(new OpenAI.APIConnectionTimeoutError());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (status < 200) return; // an interim reply (103 Early Hints): the real one follows
    this.status = status;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const chunks = this.chunks;
    const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString(
      'utf8',
    );
    const status = this.status;
    if (status >= 200 && status < 300) {
      let completion: ChatCompletion;
      try {
        completion = JSON.parse(text) as ChatCompletion;
      } catch (error) {
        this.reject(error as Error);
        return;
      }
      this.resolve(completion);
      return;
    }
    this.reject(statusError(status, text, this.headers));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(
      looksTimedOut(error)
        ? new OpenAI.APIConnectionTimeoutError()
        : new OpenAI.APIConnectionError({ cause: error }),
    );
  }
}

/** An HTTP error as the SDK raises it, the server's body first put in OpenAI's shape. */
function statusError(
  status: number,
  text: string,
  raw: IncomingHttpHeaders,
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
