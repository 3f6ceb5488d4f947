// A thin chat-completions client for the openai policy's hot path: one POST of a JSON body the
// caller has already serialised, over node:http(s) keep-alive agents shared by every episode of the
// process, and the reply parsed once. It stands in for the SDK's `chat.completions.create`, which
// per request builds headers through undici's Headers, an AbortController, log details and a
// Response; at hundreds of episodes in flight that was a sizable part of a step's CPU
// (bench/llm-bound.ts). Errors are the SDK's own classes, built as the SDK builds them (status,
// body in OpenAI's shape after normalizeErrorBody, headers), so describeLlmError, refusesTools, the
// retries and the rate-limit gate read them unchanged.
import http from 'node:http';
import https from 'node:https';
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import { normalizeErrorBody } from './llm-endpoint.ts';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
};

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
  private readonly url: URL;
  private readonly send: typeof http.request;
  private readonly agent: http.Agent;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(o: ChatClientOptions) {
    // As the SDK joins base URL and path: one slash between them.
    const base = o.baseURL;
    this.url = new URL(`${base}${base.endsWith('/') ? '' : '/'}chat/completions`);
    const protocol = this.url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error(`unsupported endpoint protocol ${protocol}`);
    this.agent = agents[protocol];
    this.send = protocol === 'https:' ? https.request : http.request;
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
   * `timeoutMs`, APIConnectionError when the endpoint cannot be reached.
   */
  create(body: string): Promise<ChatCompletion> {
    const url = this.url;
    return new Promise<ChatCompletion>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(
          looksTimedOut(error)
            ? new OpenAI.APIConnectionTimeoutError()
            : new OpenAI.APIConnectionError({ cause: error }),
        );
      };
      const req = this.send(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...this.headers, 'content-length': Buffer.byteLength(body) },
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', fail);
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))?.toString(
              'utf8',
            );
            const status = res.statusCode ?? 502;
            if (status >= 200 && status < 300) {
              try {
                resolve(JSON.parse(text ?? '') as ChatCompletion);
              } catch (error) {
                reject(error);
              }
              return;
            }
            reject(statusError(status, text ?? '', res.headers));
          });
        },
      );
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        req.destroy();
        reject(new OpenAI.APIConnectionTimeoutError());
      }, this.timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
  }
}

/** An HTTP error as the SDK raises it, the server's body first put in OpenAI's shape. */
function statusError(
  status: number,
  text: string,
  raw: http.IncomingHttpHeaders,
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
