// Both sites served on loopback (127.0.0.1, free ports) with node:http, one server per site, one pair
// per process. An episode is a session (cookie `wa_session`, shared by both sites: cookies ignore
// ports) that owns its own store, rebuilt from the seed at every reset.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forumRoute } from './sites/forum.ts';
import { gitlabRoute } from './sites/gitlab.ts';
import type { Reply, Request } from './sites/html.ts';
import { newStore, type SiteStore } from './store.ts';

export const SESSION_COOKIE = 'wa_session';
export const SITES = ['forum', 'gitlab'] as const;
export type Site = (typeof SITES)[number];

/**
 * The origins agents see and type (WebArena's Reddit and GitLab ports on localhost). The real
 * servers listen on free loopback ports; the environment maps one to the other both ways, so
 * observations, state views and tasks never carry a port that changes from run to run.
 */
export const DISPLAY_ORIGIN: Record<Site, string> = {
  forum: 'http://localhost:9999',
  gitlab: 'http://localhost:8023',
};

export interface SiteServers {
  readonly origins: Record<Site, string>;
  openSession(): { id: string; store: SiteStore };
  session(id: string): SiteStore | undefined;
  closeSession(id: string): void;
  sessionCount(): number;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('form too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function listen(
  site: Site,
  sessions: Map<string, SiteStore>,
  route: (store: SiteStore, req: Request) => Reply,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (req, res) => {
    try {
      const method = req.method === 'POST' ? 'POST' : req.method === 'GET' ? 'GET' : undefined;
      if (!method) {
        res.writeHead(405, { allow: 'GET, POST' }).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      const store = sessions.get(cookie(req.headers.cookie, SESSION_COOKIE) ?? '');
      if (!store) {
        res
          .writeHead(401, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><title>Signed out</title><h1>Signed out</h1><p>No episode session.</p>',
          );
        return;
      }
      const form = new URLSearchParams(method === 'POST' ? await readBody(req) : '');
      const reply = route(store, { method, url, form });
      if (reply.redirect) {
        res.writeHead(303, { location: reply.redirect, 'cache-control': 'no-store' }).end();
        return;
      }
      res.writeHead(reply.status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(reply.html ?? '');
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${site}: ${String(error)}`);
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

export async function startSiteServers(): Promise<SiteServers> {
  const sessions = new Map<string, SiteStore>();
  const forum = await listen('forum', sessions, forumRoute);
  const gitlab = await listen('gitlab', sessions, gitlabRoute).catch(async (e) => {
    forum.server.close();
    throw e;
  });
  const stop = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  return {
    origins: { forum: forum.origin, gitlab: gitlab.origin },
    openSession() {
      const id = randomUUID();
      const store = newStore();
      sessions.set(id, store);
      return { id, store };
    },
    session: (id) => sessions.get(id),
    closeSession(id) {
      sessions.delete(id);
    },
    sessionCount: () => sessions.size,
    close: async () => {
      await Promise.all([stop(forum.server), stop(gitlab.server)]);
    },
  };
}
