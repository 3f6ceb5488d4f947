// `fetch` for model endpoints over node:http(s) with keep-alive agents. Node's built-in fetch
// (undici) spends about twice the CPU per request (bench: 0.75–1.1 ms against 0.36–0.52 ms for a
// chat completion), which is what bounds hundreds of episodes waiting on a model in one process
// (bench/llm-bound.ts). Replies are read whole: no caller streams.
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
          const headers = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(key, value);
            else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || init.method === 'HEAD';
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers,
            }),
          );
        });
      },
    );
    const onAbort = () => {
      const error = abortError(signal as AbortSignal);
      req.destroy(error);
      reject(error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    req.end(body ?? undefined);
  });
}) as typeof fetch;
