// Issue 16 item 10 over HTTP: without team mode the studio answers only to its configured names, so
// a page whose name was re-pointed at 127.0.0.1 (DNS rebinding) cannot reach the API or the pages.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { serveStudio, type TestServer } from '../testing/http.ts';
import { testServices } from '../testing/services.ts';
import { allowedHosts } from './hosts.ts';

let handle: TestDb;
let services: Services;
const servers: TestServer[] = [];

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle, {
    config: { AUTH_SECRET: undefined, HOST: '127.0.0.1', ALLOWED_HOSTS: undefined },
  });
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await services.close();
  await handle.close();
});

async function serve(extra: Partial<Services['config']> = {}): Promise<number> {
  const web = await serveStudio(
    { ...services, config: { ...services.config, ...extra } },
    { next: (_req, res) => res.end('<p>studio page</p>') },
  );
  servers.push(web);
  return Number(new URL(web.base).port);
}

/** A request with any Host and Origin (fetch would not let us set Host). */
function hit(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const LIST = '/api/trpc/runs.list';

describe('local mode answers only to its own names (DNS rebinding)', () => {
  it('refuses a foreign Host (421) and a foreign Origin (403) for the API and the pages', async () => {
    const port = await serve();
    const rebound = { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` };
    const api = await hit(port, LIST, rebound);
    expect(api.status).toBe(421);
    expect(api.body).toContain('this studio answers only to localhost, 127.0.0.1, [::1]');
    expect(api.body).toContain('ALLOWED_HOSTS');
    expect((await hit(port, '/runs', rebound)).status).toBe(421);
    const foreign = { host: `127.0.0.1:${port}`, origin: 'http://attacker.example' };
    const origin = await hit(port, '/runs', foreign);
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('pages from "http://attacker.example" may not use this studio');
    // The API's own rule answers there (Origin must be the Host).
    expect((await hit(port, LIST, foreign)).status).toBe(403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await hit(port, LIST, { host })).status, host).toBe(200);
      expect((await hit(port, '/runs', { host })).status, host).toBe(200);
    }
    expect(
      (await hit(port, LIST, { host: `localhost:${port}`, origin: `http://localhost:${port}` }))
        .status,
    ).toBe(200);
  });

  it('ALLOWED_HOSTS adds names', async () => {
    const port = await serve({ ALLOWED_HOSTS: 'studio.lan, 192.168.7.9' });
    expect((await hit(port, LIST, { host: `studio.lan:${port}` })).status).toBe(200);
    expect((await hit(port, LIST, { host: '192.168.7.9' })).status).toBe(200);
    expect((await hit(port, LIST, { host: `other.lan:${port}` })).status).toBe(421);
  });

  it('bound to every interface, the machine’s own addresses are allowed', () => {
    const names = allowedHosts({ host: '0.0.0.0' });
    expect(names).toContain('127.0.0.1');
    expect(names).toContain('[::1]');
    expect(allowedHosts({ host: '10.1.2.3' })).toContain('10.1.2.3');
    expect(allowedHosts({ host: '::1' })).toContain('[::1]');
  });
});
