// The studio's request handler (server/http.ts, the one server/main.ts serves, with a stand-in
// for Next) over HTTP on loopback: security headers, CSRF-safe mutations,
// the 1 MiB body limit.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../api/trpc.ts';
import { LOCAL_CALLER } from '../auth/caller.ts';
import type { Services } from '../compose.ts';
import { type DbHandle, openDb } from '../db/index.ts';
import { serveStudio, type TestServer } from '../testing/http.ts';
import { testServices } from '../testing/services.ts';
import { contentSecurityPolicy, MAX_BODY_BYTES } from './web.ts';

let web: TestServer;
let handle: DbHandle;
let services: Services;
let base: string;
let pagesServed = 0;

beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', memory: true });
  services = await testServices(handle);
  web = await serveStudio(services, {
    context: () => createContext(services, LOCAL_CALLER),
    next: (_req, res) => {
      pagesServed += 1;
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>studio</title>');
    },
  });
  base = web.base;
});

afterAll(async () => {
  await web?.close();
  await services.close();
  await handle.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP (not fetch): fetch forbids setting Origin / Sec-Fetch-Site, which a browser sets. */
function send(
  path: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    chunked?: boolean;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method: o.method ?? 'GET', headers: o.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // The server may answer (413) and close before the whole oversize body is written.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? undefined : reject(e)));
    if (o.body !== undefined) {
      if (o.chunked) {
        const body = Buffer.from(o.body);
        for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
      } else {
        req.write(o.body);
      }
    }
    req.end();
  });
}

const CANCEL = '/api/trpc/runs.cancel';
const json = { 'Content-Type': 'application/json' };

describe('security headers', () => {
  it('every page and API response carries CSP, nosniff, frame denial and a referrer policy', async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/runs/abc?step=3', '/api/trpc/bridges.list']) {
      const r = await send(path);
      const csp = String(r.headers['content-security-policy']);
      if (path.startsWith('/api/')) expect(csp).toBe(contentSecurityPolicy());
      else {
        // Pages: a fresh nonce each, and no inline script without it.
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
        expect(nonce, path).toBeDefined();
        nonces.add(nonce!);
        expect(csp).toBe(contentSecurityPolicy(false, nonce));
        expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      }
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
    expect(pagesServed).toBe(2);
    expect(nonces.size).toBe(2);
  });

  it('the CSP forbids framing, plugins and foreign scripts but keeps what Next needs', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/script-src 'self';/);
    expect(contentSecurityPolicy(false, 'abc')).toMatch(
      /script-src 'self' 'nonce-abc' 'strict-dynamic';/,
    );
    // Inline scripts need the nonce: 'unsafe-inline' is left to styles.
    expect(contentSecurityPolicy(false, 'abc')).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy(true)).toContain("'unsafe-eval'");
  });
});

describe('CSRF-safe mutations', () => {
  it('a same-origin JSON POST reaches the procedure (input validation answers)', async () => {
    const r = await send(CANCEL, {
      method: 'POST',
      headers: { ...json, Origin: base, Host: new URL(base).host, 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({}),
    });
    expect(r.status).toBe(400);
    expect(r.body).toContain('BAD_REQUEST');
  });

  it('refuses a POST from another origin before any procedure runs', async () => {
    const r = await send(CANCEL, {
      method: 'POST',
      headers: { ...json, Origin: 'http://evil.example' },
      body: JSON.stringify({ id: 'x' }),
    });
    expect(r.status).toBe(403);
    expect(r.body).toContain('origin http://evil.example may not call this API');
  });

  it('refuses cross-site fetches and opaque origins', async () => {
    const cross = await send(CANCEL, {
      method: 'POST',
      headers: { ...json, 'Sec-Fetch-Site': 'cross-site' },
      body: '{}',
    });
    expect(cross.status).toBe(403);
    const opaque = await send(CANCEL, {
      method: 'POST',
      headers: { ...json, Origin: 'null' },
      body: '{}',
    });
    expect(opaque.status).toBe(403);
  });

  it('refuses form-encoded and text/plain posts (what an HTML form can send)', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await send(CANCEL, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: 'id=x',
      });
      expect(r.status, type).toBe(415);
    }
  });

  it('a mutation cannot be triggered by GET (a link or an <img>)', async () => {
    const r = await send(`${CANCEL}?input=${encodeURIComponent(JSON.stringify({ id: 'x' }))}`);
    expect(r.status).toBe(405);
  });
});

describe('request size limit', () => {
  it('answers 413 to a declared body over 1 MiB', async () => {
    const body = JSON.stringify({ id: 'x'.repeat(MAX_BODY_BYTES + 10) });
    const r = await send(CANCEL, { method: 'POST', headers: json, body });
    expect(r.status).toBe(413);
  });

  it('answers 413 to a chunked body over 1 MiB (no Content-Length to trust)', async () => {
    const body = JSON.stringify({ id: 'x'.repeat(MAX_BODY_BYTES + 10) });
    const r = await send(CANCEL, {
      method: 'POST',
      headers: { ...json, 'Transfer-Encoding': 'chunked' },
      body,
      chunked: true,
    });
    expect(r.status).toBe(413);
  });
});
