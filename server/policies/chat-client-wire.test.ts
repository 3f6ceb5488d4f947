// The chat client against a raw TCP server that writes replies byte by byte as a test wants them:
// split across packets (mid-character too), chunked, ending with the connection, after an interim
// 100, cut short; and what it does with connections: kept alive and reused, not reused when the
// server closes or means to close them, more for requests at once, a timed-out one dropped.
import net from 'node:net';
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatClient } from './chat-client.ts';

const ok = (json: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
const bytes = (s: string) => Buffer.from(s, 'utf8');
const head201 = bytes('HTTP/1.1 201 Created\r\ncontent-length: 11\r\n\r\n{"x":"h');
const e = bytes('é"}'); // 'é' is two bytes: the reply is split between them below

/** Per model, the raw reply (each buffer one write, 5 ms apart); 'hang' never answers. */
const REPLIES: Record<string, Buffer[] | 'hang' | 'cut'> = {
  plain: [bytes(ok('{"x":"hello"}'))],
  split: [head201.subarray(0, 20), head201.subarray(20), e.subarray(0, 1), e.subarray(1)],
  chunked: [
    bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n{"x":'),
    bytes('"\r\n9;ext=1\r\nabcdéf"}\r\n0\r\n'),
    bytes('Trailer: x\r\n\r\n'),
  ],
  interim: [
    bytes(`HTTP/1.1 103 Early Hints\r\nLink: </x>; rel=preload\r\n\r\n${ok('{"x":"ok"}')}`),
  ],
  limited: [
    bytes(
      'HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 33\r\n\r\n{"error":{"message":"slow down"}}',
    ),
  ],
  'to-end': [bytes('HTTP/1.0 500 Oops\r\nContent-Type: text/plain\r\n\r\nall of '), bytes('this')],
  close: [bytes('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}')],
  hint: [bytes('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\n{}')],
  old: [bytes('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}')],
  cut: 'cut',
  hang: 'hang',
};

/** A raw server on a port of its own (so no test reuses another's connections). */
async function serve() {
  const connections = new Set<net.Socket>();
  const seen: string[] = [];
  let opened = 0;
  const server = net.createServer((socket) => {
    opened += 1;
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    let buf = Buffer.alloc(0);
    socket.on('data', async (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buf.toString('latin1', 0, end))?.[1]);
      if (buf.length < end + 4 + length) return;
      const request = buf.toString('utf8', 0, end + 4 + length);
      buf = buf.subarray(end + 4 + length);
      seen.push(request);
      const model = (
        JSON.parse(request.slice(request.indexOf('\r\n\r\n') + 4)) as { model: string }
      ).model;
      const reply = REPLIES[model];
      if (reply === 'hang') return;
      if (reply === 'cut') {
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{"x"');
        return;
      }
      for (const part of reply ?? []) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (model === 'to-end' || model === 'close') socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const client = (timeoutMs = 5000) =>
    new ChatClient({ baseURL: `http://127.0.0.1:${port}/v1`, timeoutMs });
  const close = async () => {
    for (const s of connections) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  servers.push(close);
  return { client, seen, connections, opened: () => opened };
}
const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

const ask = (client: ChatClient, model: string) =>
  client.create(JSON.stringify({ model, messages: [{ role: 'user', content: 'ünï' }] }));
/**
 * An episode's step between two requests (the environment's turn). undici hands a connection back
 * to its pool a tick after the reply's last byte: a request sent in the same tick opens another.
 */
const step = () => new Promise((resolve) => setImmediate(resolve));

/** What a call threw, in comparable terms. */
async function failure(p: Promise<unknown>) {
  const error = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as InstanceType<typeof OpenAI.APIError>;
  return {
    class: error?.constructor.name,
    message: error?.message,
    status: error?.status,
    cause: String((error as { cause?: unknown })?.cause),
  };
}

describe('ChatClient on the wire', () => {
  it('reads Content-Length, split, chunked, interim and to-the-end replies; sends the body whole', async () => {
    const s = await serve();
    const c = s.client();
    expect(await ask(c, 'plain')).toEqual({ x: 'hello' });
    expect(await ask(c, 'split')).toEqual({ x: 'hé' });
    expect(await ask(c, 'chunked')).toEqual({ x: 'abcdéf' });
    expect(await ask(c, 'interim')).toEqual({ x: 'ok' });
    expect(await ask(c, 'close')).toEqual({});
    const body = JSON.stringify({ model: 'plain', messages: [{ role: 'user', content: 'ünï' }] });
    const request = s.seen.at(-1) ?? '';
    expect(request.slice(request.indexOf('\r\n\r\n') + 4)).toBe(body.replace('plain', 'close'));
    expect(request).toMatch(/^POST \/v1\/chat\/completions HTTP\/1\.1\r\n/);
    expect(request).toMatch(new RegExp(`\r\ncontent-length: ${Buffer.byteLength(body) + 0}\r\n`));
  });

  it('an HTTP error carries its status, body and headers (repeated ones joined)', async () => {
    const s = await serve();
    const error = (await ask(s.client(), 'limited').catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(error.constructor.name).toBe('RateLimitError');
    expect(error.message).toBe('429 slow down');
    expect(error.headers?.get('retry-after')).toBe('2');
    expect(error.headers?.get('x-a')).toBe('1, 2');
    expect(await failure(ask(s.client(), 'to-end'))).toMatchObject({
      class: 'InternalServerError',
      status: 500,
      message: '500 all of this',
    });
  });

  it('keeps a connection alive between requests, and opens more for requests at once', async () => {
    const s = await serve();
    const c = s.client();
    await ask(c, 'plain');
    await step();
    await ask(c, 'plain');
    expect(s.opened()).toBe(1);
    await step();
    await Promise.all([1, 2, 3].map(() => ask(c, 'plain')));
    expect(s.opened()).toBe(3);
    // Not reused: a connection the server closes, one it means to close within the second, an
    // HTTP/1.0 one.
    for (const model of ['close', 'hint', 'old']) {
      const fresh = await serve();
      await ask(fresh.client(), model);
      await step();
      await ask(fresh.client(), model);
      expect([model, fresh.opened()]).toEqual([model, 2]);
    }
  });

  it('a connection the server closed while idle is not reused', async () => {
    const s = await serve();
    await ask(s.client(), 'plain');
    for (const socket of s.connections) socket.end();
    await new Promise((r) => setTimeout(r, 50));
    expect(await ask(s.client(), 'plain')).toEqual({ x: 'hello' });
    expect(s.opened()).toBe(2);
  });

  it('a reply cut short, a refused connection and a timeout are connection errors', async () => {
    const s = await serve();
    expect(await failure(ask(s.client(), 'cut'))).toMatchObject({
      class: 'APIConnectionError',
      message: 'Connection error.',
    });
    expect(await failure(ask(s.client(50), 'hang'))).toMatchObject({
      class: 'APIConnectionTimeoutError',
      message: 'Request timed out.',
    });
    // The timed-out connection is dropped (the server sees it close), the client still works.
    await expect.poll(() => s.connections.size).toBe(0);
    expect(await ask(s.client(), 'plain')).toEqual({ x: 'hello' });
    const dead = new ChatClient({ baseURL: 'http://127.0.0.1:1/v1', timeoutMs: 5000 });
    expect(await failure(ask(dead, 'plain'))).toMatchObject({
      class: 'APIConnectionError',
      message: 'Connection error.',
      cause: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
