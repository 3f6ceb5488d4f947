// What a caller of the HTTP API reads when something is wrong: one sentence per problem with its
// path (never zod's JSON), no stack traces or file paths outside development mode, and a clean 4xx
// for bad input the old code answered with a 500 (NUL in a name, a 20,000-deep spec, a made-up
// audit cursor, an oversize sign-in form).
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CALLER } from '../auth/caller.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { InfraError } from '../errors.ts';
import { SELF_ORIGIN_HEADER } from '../http.ts';
import { serveStudio, type TestServer } from '../testing/http.ts';
import { testServices } from '../testing/services.ts';
import { createContext, formatError, INTERNAL_MESSAGE } from './trpc.ts';

let handle: TestDb;
let services: Services;
let prod: TestServer;
let dev: TestServer;
let team: { handle: TestDb; services: Services; web: TestServer } | undefined;

/** A stand-in for Next that shows which self origin it was told. */
const next = (req: { headers: Record<string, unknown> }, res: { end(s: string): void }) =>
  res.end(String(req.headers[SELF_ORIGIN_HEADER] ?? 'none'));

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle);
  const context = () => createContext(services, LOCAL_CALLER);
  prod = await serveStudio(services, { context, next, selfOrigin: 'http://127.0.0.1:9' });
  dev = await serveStudio(services, { context, next, dev: true });
}, 60_000);

afterAll(async () => {
  await prod?.close();
  await dev?.close();
  await services.close();
  await handle.close();
  if (team) {
    await team.web.close();
    await team.services.close();
    await team.handle.close();
  }
});

interface ErrorBody {
  error: {
    message: string;
    data: {
      code: string;
      httpStatus: number;
      stack?: string;
      issues?: { path: string; message: string }[];
    };
  };
}

async function call(
  server: TestServer,
  path: string,
  body: unknown,
): Promise<{ status: number; body: ErrorBody; text: string }> {
  const res = await fetch(`${server.base}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as ErrorBody, text };
}

async function query(server: TestServer, path: string, input: unknown) {
  const res = await fetch(
    `${server.base}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
  );
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as ErrorBody, text };
}

const rig = (band: [number, number]) => ({
  task: 'household:train-0001',
  policy: 'scripted:household-no-open',
  band,
});

describe('API error responses', () => {
  it('a refused input is one sentence per problem with its path, not a zod dump', async () => {
    const r = await call(prod, 'rigs.launch', { ...rig([0.9, 0.1]), k: 0 });
    expect(r.status).toBe(400);
    expect(r.body.error.data.issues).toEqual([
      { path: 'k', message: 'must be at least 1' },
      { path: 'band', message: 'the low end must not be above the high end' },
    ]);
    expect(r.body.error.message).toBe(
      'k: must be at least 1; band: the low end must not be above the high end',
    );
    expect(r.body.error.message).not.toContain('"code"');
  });

  it('outside development mode: no stack, no file paths; in development mode the stack stays', async () => {
    const r = await call(prod, 'rigs.launch', rig([0.9, 0.1]));
    expect(r.body.error.data.stack).toBeUndefined();
    expect(r.text).not.toMatch(/node_modules|\/server\/|\.ts:\d+/);
    const d = await call(dev, 'rigs.launch', rig([0.9, 0.1]));
    expect(d.body.error.data.stack).toMatch(/TRPCError/);
  });

  it('NUL in a name is a clean 400 with a sentence, not a 500 with Prisma internals', async () => {
    const r = await call(prod, 'harnesses.create', {
      name: 'mug\u0000picker',
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: '1-1-1-8' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/NUL|must not contain/);
    expect(r.text).not.toMatch(/prisma|invocation|library\.ts/i);
  });

  it('a 20,000-deep spec is refused with a clear 400 on every procedure that takes one', async () => {
    const deep = `${'{"type":"stage","actions":[],"env":'.repeat(20_000)}{"type":"base","bridge":"toy24","task":"1-1-1-8"}${'}'.repeat(20_000)}`;
    for (const [path, prefix] of [
      ['harnesses.create', '{"name":"deep","spec":{"version":1,"env":'],
      ['runs.launch', '{"policy":"scripted:toy24-greedy","spec":{"version":1,"env":'],
    ] as const) {
      const r = await call(prod, path, `${prefix}${deep}}}`);
      expect(r.status, path).toBe(400);
      expect(r.body.error.message).toMatch(/nested deeper than 100 levels/);
    }
  });

  it('a made-up audit cursor is a 400 naming the field', async () => {
    const r = await query(prod, 'auth.audit', { cursor: 'abc' });
    expect(r.status).toBe(400);
    expect(r.body.error.data.issues?.[0]?.path).toBe('cursor');
  });

  it('an unexpected failure says so without its internals outside development mode', () => {
    const cause = new Error('Cannot read x of undefined at /work/server/rollouts/reads.ts:12');
    const error = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
    const shape = {
      message: error.message,
      code: -32603,
      data: { code: 'INTERNAL_SERVER_ERROR' as const, httpStatus: 500, stack: 'Error: …' },
    };
    const out = formatError({ shape, error, dev: false });
    expect(out.message).toBe(INTERNAL_MESSAGE);
    expect(out.data.stack).toBeUndefined();
    expect(formatError({ shape, error, dev: true }).message).toBe(cause.message);
    // A typed error's message is meant for the caller and stays.
    const infra = new InfraError('the embedded database is open in another process');
    const typed = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: infra.message,
      cause: infra,
    });
    expect(
      formatError({ shape: { ...shape, message: infra.message }, error: typed, dev: false })
        .message,
    ).toBe('the embedded database is open in another process');
  });
});

describe('pages learn the server’s own origin, never the client’s', () => {
  it('overwrites a forged self-origin header, and drops it when the server has none', async () => {
    const forged = { headers: { [SELF_ORIGIN_HEADER]: 'http://evil.example' } };
    expect(await (await fetch(`${prod.base}/runs/x`, forged)).text()).toBe('http://127.0.0.1:9');
    expect(await (await fetch(`${dev.base}/runs/x`, forged)).text()).toBe('none');
  });
});

describe('the sign-in form', () => {
  it('answers 413 with a page (not a 500 with an empty body) to a form over 16 KB', async () => {
    const h = await createTestDb('pglite');
    const s = await testServices(h, {
      config: { AUTH_SECRET: 'error-responses-secret-0123456789abcdef' },
    });
    team = { handle: h, services: s, web: await serveStudio(s, { next }) };
    const res = await fetch(`${team.web.base}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=a%40b.test&password=${'x'.repeat(17 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('larger than 16 KB');
  });
});
