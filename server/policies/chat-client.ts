// A thin chat-completions client for the openai policy's hot path: one POST of a JSON body the
// caller has already serialised, the reply parsed once. Plain-http endpoints (local servers) go
// over http1.ts's keep-alive connections, https ones over a node:https keep-alive agent; both are
// shared by every episode of the process. It stands in for the SDK's `chat.completions.create`,
// which per request builds headers through undici's Headers, an AbortController, log details and
// a Response; at hundreds of episodes in flight that was a sizable part of a step's CPU
// (bench/llm-bound.ts). Errors are the SDK's own classes, built as the SDK builds them (status,
// body in OpenAI's shape after normalizeErrorBody, headers), so describeLlmError, refusesTools, the
// retries and the rate-limit gate read them unchanged (chat-client.test.ts compares them, and
// chat-client-https.test.ts over https).
import type http from 'node:http';
import https from 'node:https';
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import { Http1Pool } from './http1.ts';
import { normalizeErrorBody } from './llm-endpoint.ts';

const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** Plain-http endpoints: one pool of keep-alive connections per host:port (http1.ts). */
const pools = new Map<string, Http1Pool>();
function poolFor(url: URL): Http1Pool {
  let pool = pools.get(url.host);
  if (!pool) {
    pool = new Http1Pool(url.hostname.replace(/^\[|\]$/g, ''), Number(url.port || 80));
    pools.set(url.host, pool);
  }
  return pool;
}

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
  private readonly headers: Record<string, string>;
  /** Plain http: the pool, and the request's head up to its Content-Length. */
  private readonly plain: { pool: Http1Pool; head: string } | undefined;
  private readonly timeoutMs: number;

  constructor(o: ChatClientOptions) {
    // As the SDK joins base URL and path: one slash between them.
    const base = o.baseURL;
    this.url = new URL(`${base}${base.endsWith('/') ? '' : '/'}chat/completions`);
    const protocol = this.url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error(`unsupported endpoint protocol ${protocol}`);
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
    if (protocol === 'http:') {
      for (const [k, v] of Object.entries(this.headers))
        if (/[\r\n]/.test(v)) throw new Error(`invalid character in the ${k} header`);
      const lines = Object.entries(this.headers).map(([k, v]) => `${k}: ${v}\r\n`);
      this.plain = {
        pool: poolFor(this.url),
        head: `POST ${this.url.pathname}${this.url.search} HTTP/1.1\r\nhost: ${this.url.host}\r\nconnection: keep-alive\r\n${lines.join('')}`,
      };
    }
  }

  /**
   * POSTs `body` (a chat-completions request as JSON text) and resolves with the completion.
   * Rejects with the SDK's APIError subclass for an HTTP error, APIConnectionTimeoutError after
   * `timeoutMs`, APIConnectionError when the endpoint cannot be reached.
   */
  create(body: string): Promise<ChatCompletion> {
    if (this.plain) return this.createPlain(this.plain, body);
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
      const req = https.request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...this.headers, 'content-length': Buffer.byteLength(body) },
          agent: httpsAgent,
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

  private async createPlain(
    plain: { pool: Http1Pool; head: string },
    body: string,
  ): Promise<ChatCompletion> {
    let reply: Awaited<ReturnType<Http1Pool['request']>>;
    try {
      reply = await plain.pool.request(
        plain.head,
        body,
        this.timeoutMs,
        () => new OpenAI.APIConnectionTimeoutError(),
      );
    } catch (error) {
      if (error instanceof OpenAI.APIError) throw error;
      throw looksTimedOut(error as Error)
        ? new OpenAI.APIConnectionTimeoutError()
        : new OpenAI.APIConnectionError({ cause: error as Error });
    }
    const text = reply.body.toString('utf8');
    if (reply.status >= 200 && reply.status < 300) return JSON.parse(text) as ChatCompletion;
    throw statusError(reply.status, text, reply.headers);
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
