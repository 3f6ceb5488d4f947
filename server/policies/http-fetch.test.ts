import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from './http-fetch.ts';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(req.url === '/limited' ? 429 : 200, {
        'content-type': 'application/json',
        'retry-after': '3',
      });
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('httpFetch (keep-alive node:http under the SDK)', () => {
  it('sends method, headers and body; hands back status, headers and body', async () => {
    const res = await httpFetch(`${base}/limited`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(429);
    expect(res.ok).toBe(false);
    expect(res.headers.get('Retry-After')).toBe('3');
    expect(new Headers(res.headers).get('content-type')).toBe('application/json');
    expect([...res.headers.entries()].map(([k]) => k)).toContain('retry-after');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
  });

  it('rejects with an AbortError when the signal aborts mid-request', async () => {
    const abort = new AbortController();
    const pending = httpFetch(`${base}/hang`, { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a refused connection is an error, not a response', async () => {
    await expect(httpFetch('http://127.0.0.1:1/x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
