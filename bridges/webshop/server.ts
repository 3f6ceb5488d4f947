// The shop served on loopback (127.0.0.1, a free port) with node:http. One server per process,
// started by the first episode that needs it; each episode is a session (cookie `ws_session`) whose
// goal the pages show as the instruction.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderPage } from './site.ts';
import type { Goal } from './tasks.ts';

export const SESSION_COOKIE = 'ws_session';

export interface ShopServer {
  readonly url: string;
  openSession(goal: Goal): string;
  closeSession(id: string): void;
  sessionCount(): number;
  close(): Promise<void>;
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export async function startShopServer(): Promise<ShopServer> {
  const sessions = new Map<string, Goal>();
  const server: Server = createServer((req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      const session = cookie(req.headers.cookie, SESSION_COOKIE);
      const { status, html } = renderPage(url, session ? sessions.get(session) : undefined);
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : html);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  // Idle keep-alive sockets would otherwise hold close() open for the keep-alive timeout.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    openSession(goal) {
      const id = randomUUID();
      sessions.set(id, goal);
      return id;
    },
    closeSession(id) {
      sessions.delete(id);
    },
    sessionCount: () => sessions.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
