import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { serveStudio, type TestServer } from '../testing/http.ts';
import { testServices } from '../testing/services.ts';
import type { Accounts } from './service.ts';

let handle: TestDb;
let services: Services;
let accounts: Accounts;
let web: TestServer;
let base: string;
let runId = '';

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle, {
    config: { AUTH_SECRET: 'http-test-secret-0123456789abcdefghijkl' },
  });
  accounts = services.accounts;
  const user = await accounts.createUser({ email: 'r@x.test', password: 'researcher-pass' });
  const project = await accounts.createProject({ name: 'Alpha', by: user.id });
  await accounts.addMember({
    userId: user.id,
    projectId: project.id,
    role: 'researcher',
    by: user.id,
  });
  runId = (
    await handle.db.run.create({
      data: {
        policy: 'scripted:x',
        spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: 't' } },
        taskIds: ['t'],
        k: 1,
        seeds: [0],
        maxSteps: 1,
        rewardParams: {},
        projectId: project.id,
      },
    })
  ).id;
  web = await serveStudio(services, {
    next: (_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<p>studio page</p>');
    },
  });
  base = web.base;
}, 60_000);

afterAll(async () => {
  await web?.close();
  await services.close();
  await handle.close();
});

const get = (path: string, cookie?: string) =>
  fetch(`${base}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

function cookieFrom(res: Response, name: string): string {
  const found = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  expect(found, `${name} cookie`).toBeDefined();
  expect(found).toContain('HttpOnly');
  expect(found).toContain('SameSite=Lax');
  return found!.split(';')[0]!;
}

const byId = (id: string) =>
  `/api/trpc/runs.byId?input=${encodeURIComponent(JSON.stringify({ id }))}`;

describe('team mode over HTTP', () => {
  it('sends anonymous page visits to the sign-in form, and the API answers 401', async () => {
    const page = await get('/runs/abc?step=2');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin?next=%2Fruns%2Fabc%3Fstep%3D2');
    expect((await get('/signin')).status).toBe(200);
    expect((await get(byId(runId))).status).toBe(401);
  });

  it('signs in with the form; the session cookie opens pages and the API', async () => {
    const bad = await fetch(`${base}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=r%40x.test&password=wrong-password&next=%2Fruns',
    });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain('wrong email or password');

    const ok = await fetch(`${base}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=r%40x.test&password=researcher-pass&next=%2F%2Fevil.example',
    });
    expect(ok.status).toBe(303);
    // An off-site `next` is never followed.
    expect(ok.headers.get('location')).toBe('/');
    const session = cookieFrom(ok, 'eh_session');
    expect((await get('/runs', session)).status).toBe(200);
    const api = await get(byId(runId), session);
    expect(api.status).toBe(200);
  });

  it('a share link sets a read-only cookie and lands on the run page', async () => {
    const { token } = await accounts.shares.create({
      kind: 'run',
      ids: [runId],
      by: 'test',
      projectId: null,
    });
    const res = await get(`/share/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/runs/${runId}`);
    const share = cookieFrom(res, 'eh_share');
    expect((await get(`/runs/${runId}`, share)).status).toBe(200);
    expect((await get(byId(runId), share)).status).toBe(200);
    expect((await get('/api/trpc/runs.list', share)).status).toBe(403);
    expect((await get('/share/not.valid')).status).toBe(410);
  });
});
