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

const form = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

async function signedIn(): Promise<string> {
  const res = await form('email=r%40x.test&password=researcher-pass');
  expect(res.status).toBe(303);
  return cookieFrom(res, 'eh_session');
}

const signOut = (cookie: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/signout`, { method: 'POST', redirect: 'manual', headers: { cookie, ...headers } });

describe('sessions end at sign-out (issue 16 item 7)', () => {
  it('the session cookie no longer opens the API or pages after /signout', async () => {
    const session = await signedIn();
    expect((await get(byId(runId), session)).status).toBe(200);
    const out = await signOut(session);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/signin');
    // The browser drops the cookie, but a copy of it must not work either.
    expect((await get(byId(runId), session)).status).toBe(401);
    const page = await get('/runs', session);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/^\/signin\?next=/);
  });

  it('a cross-site POST to /signout is refused and the session goes on', async () => {
    const session = await signedIn();
    const evil = await signOut(session, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect((await signOut(session, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get(byId(runId), session)).status).toBe(200);
  });

  it('a sign-out link works from the studio; followed from another site it only offers the button', async () => {
    const session = await signedIn();
    const foreign = await fetch(`${base}/signout`, {
      redirect: 'manual',
      headers: { cookie: session, 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(200);
    expect(await foreign.text()).toContain('data-testid="signout-confirm"');
    expect((await get(byId(runId), session)).status).toBe(200);
    const link = await fetch(`${base}/signout`, {
      redirect: 'manual',
      headers: { cookie: session, 'sec-fetch-site': 'same-origin' },
    });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/signin');
    expect((await get(byId(runId), session)).status).toBe(401);
  });

  it('too many wrong passwords answer 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let retry: string | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await form(`email=throttled%40x.test&password=guess-${i}`);
      statuses.push(res.status);
      retry = res.headers.get('retry-after');
      if (res.status === 429) expect(await res.text()).toContain('too many sign-in attempts');
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(retry).toBe('1');
  }, 60_000);
});

describe('sign-in forms and redirects', () => {
  it('follows only same-origin paths after sign-in', async () => {
    const next = async (value: string) => {
      const res = await form(
        `email=r%40x.test&password=researcher-pass&next=${encodeURIComponent(value)}`,
      );
      return res.headers.get('location');
    };
    expect(await next('/\\evil.example/x')).toBe('/');
    expect(await next('//evil.example')).toBe('/');
    expect(await next('/\t/evil.example')).toBe('/');
    expect(await next('https://evil.example/')).toBe('/');
    expect(await next('/runs/abc?step=2#s')).toBe('/runs/abc?step=2#s');
    // The form's hidden field is cleaned the same way.
    const page = await (await get('/signin?next=%2F%5Cevil.example%2Fx')).text();
    expect(page).toContain('name="next" value="/"');
  });

  it('refuses NUL and control characters in form fields with a 400, and an oversize form with a 413', async () => {
    const nul = await form('email=r%40x.test%00&password=researcher-pass');
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain('the email field has NUL at character 9');
    const big = await form(`email=r%40x.test&password=${'a'.repeat(20_000)}`);
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('larger than 16 KB');
  });

  it('the API refuses a lone surrogate with a 400 that says where', async () => {
    const session = await signedIn();
    const res = await fetch(`${base}/api/trpc/harnesses.create`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: '{"name":"x\\ud800","spec":{}}',
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('name has a lone surrogate (U+D800)');
  });
});

describe('share links are revocable (issue 16 item 8)', () => {
  it('a revoked link no longer opens, and its cookie no longer reads', async () => {
    const link = await accounts.shares.create({
      kind: 'run',
      ids: [runId],
      by: 'test',
      projectId: null,
    });
    const opened = await get(`/share/${link.token}`);
    expect(opened.status).toBe(303);
    const share = cookieFrom(opened, 'eh_share');
    expect((await get(byId(runId), share)).status).toBe(200);
    await accounts.shares.revoke(link.id, 'test');
    expect((await get(`/share/${link.token}`)).status).toBe(410);
    expect((await get(byId(runId), share)).status).toBe(401);
    expect((await get(`/runs/${runId}`, share)).status).toBe(303);
  });
});
