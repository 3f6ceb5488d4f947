// The minimal HTTP/1.1 client against a raw TCP server that writes replies byte by byte as a test
// wants them: split across packets, chunked, ending with the connection, interim 100s, cut short.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dechunk, Http1Pool } from './http1.ts';

/** Per request path, the raw reply (each string one write, 5 ms apart); 'hang' never answers. */
const REPLIES: Record<string, string[] | 'hang' | 'cut'> = {
  '/plain': ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\nx-a: 2\r\n\r\nhello'],
  '/split': ['HTTP/1.1 201 Created\r\nconte', 'nt-length: 4\r\n\r', '\nhé', 'l'],
  '/chunked': [
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab',
    'cd\r\n3;ext=1\r\néf\r\n0\r\n',
    'Trailer: x\r\n\r\n',
  ],
  '/continue': ['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'],
  '/close': ['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye'],
  '/to-end': ['HTTP/1.0 500 Oops\r\nContent-Type: text/plain\r\n\r\nall of ', 'this'],
  '/nobody': ['HTTP/1.1 204 No Content\r\n\r\n'],
  '/hint': ['HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 1\r\n\r\nh'],
  '/old': ['HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\no'],
  '/cut': 'cut',
  '/hang': 'hang',
};

let server: net.Server;
let port: number;
let opened = 0;
const connections = new Set<net.Socket>();
const seen: string[] = [];
beforeAll(async () => {
  server = net.createServer((socket) => {
    opened += 1;
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    let buf = '';
    socket.on('data', async (c) => {
      buf += c.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      const request = buf.slice(0, end + 4 + length);
      buf = buf.slice(end + 4 + length);
      seen.push(request);
      const path = request.split(' ')[1] ?? '';
      const reply = REPLIES[path];
      if (reply === 'hang') return;
      if (reply === 'cut') {
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc');
        return;
      }
      for (const part of reply ?? []) {
        socket.write(Buffer.from(part, 'utf8'));
        await new Promise((r) => setTimeout(r, 5));
      }
      if (path === '/to-end' || path === '/close') socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of connections) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const timeout = () => new Error('timed out');
const head = (path: string) => `POST ${path} HTTP/1.1\r\nhost: x\r\n`;

describe('Http1Pool', () => {
  it('reads Content-Length, split, chunked, interim and to-the-end bodies; joins repeated headers', async () => {
    const pool = new Http1Pool('127.0.0.1', port);
    const get = async (path: string) => {
      const r = await pool.request(head(path), '{"a":"é"}', 5000, timeout);
      return { status: r.status, body: r.body.toString('utf8'), headers: r.headers };
    };
    expect(await get('/plain')).toMatchObject({
      status: 200,
      body: 'hello',
      headers: { 'content-length': '5', 'x-a': '1, 2' },
    });
    expect(await get('/split')).toMatchObject({ status: 201, body: 'hél' });
    expect(await get('/chunked')).toMatchObject({ status: 200, body: 'abcdéf' });
    expect(await get('/continue')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get('/nobody')).toMatchObject({ status: 204, body: '' });
    expect(await get('/to-end')).toMatchObject({
      status: 500,
      body: 'all of this',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await get('/close')).toMatchObject({ status: 200, body: 'bye' });
    // The request went whole, its Content-Length in bytes.
    expect(seen.at(-1)).toBe(
      'POST /close HTTP/1.1\r\nhost: x\r\ncontent-length: 10\r\n\r\n{"a":"Ã©"}',
    );
    pool.close();
  });

  it('keeps a connection alive between requests, and opens more for requests at once', async () => {
    const pool = new Http1Pool('127.0.0.1', port);
    const before = opened;
    await pool.request(head('/plain'), '', 5000, timeout);
    await pool.request(head('/plain'), '', 5000, timeout);
    expect(opened).toBe(before + 1);
    await Promise.all([1, 2, 3].map(() => pool.request(head('/plain'), '', 5000, timeout)));
    expect(opened).toBe(before + 3);
    // Not reused: a connection the server means to close within a second, an HTTP/1.0 one.
    pool.close();
    for (const path of ['/hint', '/old']) {
      const fresh = new Http1Pool('127.0.0.1', port);
      const n = opened;
      await fresh.request(head(path), '', 5000, timeout);
      await fresh.request(head(path), '', 5000, timeout);
      expect([path, opened]).toEqual([path, n + 2]);
      fresh.close();
    }
  });

  it('a connection the server closed is not reused', async () => {
    const pool = new Http1Pool('127.0.0.1', port);
    await pool.request(head('/plain'), '', 5000, timeout);
    for (const s of connections) s.end();
    await new Promise((r) => setTimeout(r, 50));
    const r = await pool.request(head('/plain'), '', 5000, timeout);
    expect(r.body.toString()).toBe('hello');
    pool.close();
  });

  it('a reply cut short, a refused connection and a timeout are errors', async () => {
    const pool = new Http1Pool('127.0.0.1', port);
    await expect(pool.request(head('/cut'), '', 5000, timeout)).rejects.toThrow(/socket hang up/);
    await expect(pool.request(head('/hang'), '', 50, timeout)).rejects.toThrow('timed out');
    // The timed-out connection is dropped, the pool still works.
    expect((await pool.request(head('/plain'), '', 5000, timeout)).status).toBe(200);
    pool.close();
    const dead = new Http1Pool('127.0.0.1', 1);
    await expect(dead.request(head('/plain'), '', 5000, timeout)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('dechunk waits for the whole body', () => {
    const full = Buffer.from('2\r\nab\r\n0\r\n\r\n');
    expect(dechunk(full, 0)?.toString()).toBe('ab');
    for (let n = 0; n < full.length; n++) expect(dechunk(full.subarray(0, n), 0)).toBeUndefined();
  });
});
