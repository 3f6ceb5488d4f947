import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvInfraError, UnknownTaskError } from '../core/types.ts';
import { RemoteClient } from './client.ts';
import { createRemoteBridge, type ReferenceServer, startReferenceServer } from './index.ts';
import { HealthReplyZ } from './protocol.ts';

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

/** A fake server whose every reply the test writes, to probe protocol errors. */
async function fakeServer(
  reply: (method: string, path: string, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer((req, res) => reply(req.method ?? '', req.url ?? '', res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function openEpisodes(): Promise<number> {
  const res = await fetch(`${server.url}/health`);
  return ((await res.json()) as { episodes: number }).episodes;
}

describe('remote bridge against the Python reference server', () => {
  it('reads tools, tasks and the state schema from /schema', async () => {
    const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
    const tasks = await bridge.listTasks();
    expect(tasks.length).toBeGreaterThan(300);
    expect(bridge.tools().map((t) => t.name)).toEqual(['combine']);
    expect(await bridge.getTask('1-2-3-4')).toMatchObject({
      id: '1-2-3-4',
      split: expect.any(String),
    });
    expect((await bridge.listTasks({ split: 'test' })).every((t) => t.split === 'test')).toBe(true);
  });

  it('plays a game to 24 and the remote verifier agrees', async () => {
    const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
    const env = await bridge.create();
    const start = await env.reset({ taskId: '1-2-3-4', seed: 0 });
    expect(start.observation.text).toMatch(/^Numbers: 1 2 3 4\./);
    await env.step({ name: 'combine', args: { a: 1, op: '*', b: 2 } });
    await env.step({ name: 'combine', args: { a: 2, op: '*', b: 3 } });
    const last = await env.step({ name: 'combine', args: { a: 6, op: '*', b: 4 } });
    expect(last).toMatchObject({ reward: 1, terminated: true });
    expect(env.getEnvState()).toMatchObject({ done: true, value: '24' });
    expect(await env.evaluate()).toMatchObject({ success: true, score: 1 });
    await env.close();
  });

  it('an invalid move is an observation with info.invalid, not an error', async () => {
    const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
    const env = await bridge.create();
    await env.reset({ taskId: '1-2-3-4', seed: 0 });
    const r = await env.step({ name: 'combine', args: { a: 9, op: '+', b: 1 } });
    expect(r.info.invalid).toBe(true);
    expect(r.observation.text).toContain('9 is not available');
    await env.close();
  });

  it('closes the remote episode on close, and an unknown task is UnknownTaskError', async () => {
    const before = await openEpisodes();
    const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
    const env = await bridge.create();
    await env.reset({ taskId: '1-2-3-4', seed: 0 });
    await env.reset({ taskId: '1-2-3-4', seed: 1 }); // same session reused
    expect(await openEpisodes()).toBe(before + 1);
    await env.close();
    await env.close();
    expect(await openEpisodes()).toBe(before);
    const other = await bridge.create();
    await expect(other.reset({ taskId: 'nope', seed: 0 })).rejects.toBeInstanceOf(UnknownTaskError);
    await other.close();
  });

  it('fromState replays the snapshot on a fresh remote episode', async () => {
    const bridge = await createRemoteBridge({ url: server.url, name: 'remote' });
    const env = await bridge.create();
    await env.reset({ taskId: '1-2-3-4', seed: 0 });
    await env.step({ name: 'combine', args: { a: 1, op: '+', b: 2 } });
    const copy = await bridge.fromState(JSON.parse(JSON.stringify(await env.saveState())));
    expect(copy.getEnvState()).toEqual(env.getEnvState());
    expect(copy.observe()).toEqual(env.observe());
    await Promise.all([env.close(), copy.close()]);
  });

  it('the reference server exits when its parent closes the pipe', async () => {
    const extra = await startReferenceServer();
    await extra.close();
    expect(() => process.kill(extra.pid, 0)).toThrow();
  });
});

describe('infra errors are EnvInfraError with clear messages', () => {
  it('nothing listening', async () => {
    const dead = await fakeServer(() => {});
    const url = dead.url;
    await dead.close();
    const error = await createRemoteBridge({ url, name: 'gone' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvInfraError);
    expect((error as Error).message).toMatch(
      /remote env 'gone' .*GET \/health: cannot reach the server \(ECONNREFUSED\)/,
    );
  });

  it('a server that never answers times out', async () => {
    const slow = await fakeServer(() => {});
    try {
      const client = new RemoteClient({ url: slow.url, name: 'slow', timeoutMs: 150 });
      await expect(client.request('GET', '/health', HealthReplyZ)).rejects.toThrow(
        /GET \/health timed out after 150 ms/,
      );
    } finally {
      await slow.close();
    }
  });

  it('a reply that is not JSON, an HTTP error, and a reply off the protocol', async () => {
    const bad = await fakeServer((_method, path, res) => {
      if (path === '/health') return json(res, 200, { status: 'ok' });
      if (path === '/schema') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>proxy error</html>');
      }
      if (path === '/boom') return json(res, 500, { error: 'simulator crashed' });
      return json(res, 200, { status: 'fine' });
    });
    try {
      await expect(createRemoteBridge({ url: bad.url, name: 'bad' })).rejects.toThrow(
        /GET \/schema: HTTP 200 reply is not JSON \("<html>proxy error<\/html>"\)/,
      );
      const client = new RemoteClient({ url: bad.url, name: 'bad' });
      await expect(client.request('POST', '/boom', HealthReplyZ, {})).rejects.toThrow(
        /POST \/boom: HTTP 500: simulator crashed/,
      );
      await expect(client.request('GET', '/other', HealthReplyZ)).rejects.toThrow(
        /GET \/other: the reply does not follow the protocol \(status: /,
      );
    } finally {
      await bad.close();
    }
  });

  it('a step reply with a wrong field fails the step as infra, naming the field', async () => {
    const real = await createRemoteBridge({ url: server.url, name: 'remote' });
    const schema = await (await fetch(`${server.url}/schema`)).json();
    const broken = await fakeServer((_m, path, res) => {
      if (path === '/health') return json(res, 200, { status: 'ok' });
      if (path === '/schema') return json(res, 200, schema);
      if (path === '/reset')
        return json(res, 200, {
          episode_id: 'e1',
          observation: { text: 'hi' },
          info: {},
          state: {},
        });
      return json(res, 200, { observation: { text: 42 }, reward: 0, terminated: false });
    });
    try {
      const bridge = await createRemoteBridge({ url: broken.url, name: 'broken' });
      const env = await bridge.create();
      const task = (await real.listTasks())[0]!;
      await env.reset({ taskId: task.id, seed: 0 });
      await expect(env.step({ name: 'combine', args: {} })).rejects.toThrow(
        /POST \/step: the reply does not follow the protocol \(observation\.text: /,
      );
      await env.close();
    } finally {
      await broken.close();
    }
  });

  it('rejects a URL that is not http(s)', async () => {
    await expect(createRemoteBridge({ url: 'ftp://x', name: 'x' })).rejects.toThrow(/must be http/);
  });
});
