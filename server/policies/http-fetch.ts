// `fetch` for model endpoints over node:http(s) with keep-alive agents. Node's built-in fetch
// (undici) spends about twice the CPU per request (bench: 0.75–1.1 ms against 0.36–0.52 ms for a
// chat completion), which is what bounds hundreds of episodes waiting on a model in one process
// (bench/llm-bound.ts). Replies are read whole (no caller streams) and handed back as a small
// Response look-alike: building undici's Response and Headers per reply cost as much again.
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
};

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * The headers of a reply already read: what callers of a Response use of them (get, has,
 * iteration), without building undici's Headers (sorted on every iteration) for each request.
 */
class ReadHeaders {
  private readonly map = new Map<string, string>();
  constructor(raw: NodeJS.Dict<string | string[]>) {
    for (const [key, value] of Object.entries(raw)) {
      if (value === undefined) continue;
      this.map.set(key.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
    }
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }
  forEach(fn: (value: string, key: string, parent: ReadHeaders) => void): void {
    for (const [k, v] of this.map) fn(v, k, this);
  }
  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }
  keys(): IterableIterator<string> {
    return this.map.keys();
  }
  values(): IterableIterator<string> {
    return this.map.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

/** A reply read whole: the Response members the SDK and llmFetch use, over one buffer. */
class ReadResponse {
  readonly body = null;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'basic';
  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: ReadHeaders,
    private readonly bytes: Buffer,
  ) {}
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  async text(): Promise<string> {
    return this.bytes.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.bytes.toString('utf8'));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bytes).buffer;
  }
  clone(): ReadResponse {
    return new ReadResponse(this.url, this.status, this.statusText, this.headers, this.bytes);
  }
}

export const httpFetch = (async (
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> => {
  if (input instanceof Request) return fetch(input, init);
  const url = new URL(input);
  const protocol = url.protocol as keyof typeof agents;
  const agent = agents[protocol];
  const body = init.body;
  if (!agent || (body != null && typeof body !== 'string')) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const send = protocol === 'https:' ? https.request : http.request;
  return new Promise<Response>((resolve, reject) => {
    const req = send(
      url,
      { method: init.method ?? 'GET', headers: headersOf(init.headers), agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(
            new ReadResponse(
              url.href,
              res.statusCode ?? 502,
              res.statusMessage ?? '',
              new ReadHeaders(res.headers),
              Buffer.concat(chunks),
            ) as unknown as Response,
          );
        });
      },
    );
    const onAbort = () => {
      const error = abortError(signal as AbortSignal);
      req.destroy(error);
      reject(error);
    };
    // A run's signal carries one listener per request in flight (hundreds), each removed when its
    // request ends: no leak, so no MaxListeners warning.
    if (signal) setMaxListeners(0, signal);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    req.end(body ?? undefined);
  });
}) as typeof fetch;
