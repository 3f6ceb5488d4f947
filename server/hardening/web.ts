// Web security basics for the studio's one HTTP server: security headers on every response (a CSP
// the Next app still works under), CSRF-safe tRPC mutations (POST + JSON + same origin), and a
// request body limit. server/main.ts wraps its request handler with withWebSecurity().
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** tRPC bodies are small JSON (specs are capped at 64 KiB of hook code); 1 MiB is generous. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface WebSecurityOptions {
  /** Development mode: Next's dev client needs eval (React refresh). */
  dev?: boolean;
  trpcPrefix: string;
  trpc: (req: IncomingMessage, res: ServerResponse) => void;
  next: (req: IncomingMessage, res: ServerResponse) => void;
  /** Routes answered before Next (team mode's sign-in, invite and share routes); true = answered. */
  before?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/**
 * Scripts need a per-request nonce: Next's App Router inlines its bootstrap scripts, and it puts the
 * nonce it reads from the request's Content-Security-Policy header on them, and the root layout
 * hands `x-nonce` to the theme script (every page is rendered per request for that,
 * app/layout.tsx); 'strict-dynamic' lets those scripts load Next's chunks.
 * Responses that are not pages (the API, the sign-in forms) get no nonce and run no script at all.
 * Styles keep 'unsafe-inline': React and React Flow set style attributes, which no nonce covers.
 * Everything else is same-origin only, and no one may frame us.
 */
export function contentSecurityPolicy(dev = false, nonce?: string): string {
  const scripts = nonce ? ` 'nonce-${nonce}' 'strict-dynamic'` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${scripts}${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(dev = false, nonce?: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(dev, nonce),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: { message, code: status } }));
}

/** The request's own origin as the browser would write it, from the Host header. */
function sameOrigin(req: IncomingMessage, origin: string): boolean {
  const host = req.headers.host;
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * Why a tRPC request is refused before it reaches a procedure, or undefined when it may pass.
 * Browsers always send Origin on cross-origin POSTs and Sec-Fetch-Site on every fetch, so a
 * forged form or fetch from another site is caught; the CLI and server-side callers send
 * neither and are not browsers.
 */
export function trpcRefusal(req: IncomingMessage): { status: number; message: string } | undefined {
  const length = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(length) && length > MAX_BODY_BYTES) {
    return { status: 413, message: `request body larger than ${MAX_BODY_BYTES} bytes` };
  }
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site') {
    return { status: 403, message: 'cross-site requests to the API are refused' };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && !sameOrigin(req, origin)) {
    return { status: 403, message: `origin ${origin} may not call this API` };
  }
  if (origin === 'null') return { status: 403, message: 'opaque origins may not call this API' };
  if (req.method === 'POST') {
    // A form post (urlencoded / multipart / text/plain) is the classic CSRF vector: JSON only.
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type !== 'application/json') {
      return { status: 415, message: 'API mutations must be sent as application/json' };
    }
  }
  return undefined;
}

/** The server's request handler with security headers, the tRPC guards and the body limit. */
export function withWebSecurity(
  o: WebSecurityOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const headers = Object.entries(securityHeaders(o.dev));
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (req.url?.startsWith(o.trpcPrefix)) {
      const refusal = trpcRefusal(req);
      if (refusal) {
        // Drain nothing: an oversize body is cut off with the connection.
        if (refusal.status === 413) res.setHeader('Connection', 'close');
        refuse(res, refusal.status, refusal.message);
        return;
      }
      o.trpc(req, res);
      return;
    }
    const toNext = () => {
      // A fresh nonce per page: on the response, and on the request, where Next reads it (and
      // the root layout, as x-nonce, for the scripts that are not Next's).
      const nonce = randomBytes(16).toString('base64');
      const csp = contentSecurityPolicy(o.dev, nonce);
      res.setHeader('Content-Security-Policy', csp);
      req.headers['content-security-policy'] = csp;
      req.headers['x-nonce'] = nonce;
      o.next(req, res);
    };
    if (!o.before) {
      toNext();
      return;
    }
    o.before(req, res).then(
      (answered) => {
        if (!answered) toNext();
      },
      (err: unknown) => {
        console.error('auth route:', err);
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      },
    );
  };
}
