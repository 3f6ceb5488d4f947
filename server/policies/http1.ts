// A minimal HTTP/1.1 client for plain-http model endpoints (a local vLLM, SGLang, llama.cpp,
// Ollama, the fake server): keep-alive sockets of one host:port pooled, each request written in one
// piece (head and body, one write) and each reply read whole: status line, headers, then a
// Content-Length body, a chunked one, or one that runs to the socket's end. It skips what node:http
// does per request for features a JSON POST to a model does not use (streams for request and
// reply, header validation per call, the agent's bookkeeping, the parser's objects): at hundreds of
// episodes in flight in one process that was the largest part of a step's CPU left on the
// policy's side (bench/llm-bound.ts). https endpoints go through node:https (chat-client.ts).
import net from 'node:net';

export interface Http1Reply {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** One request on one connection: what has come back so far, and where its parts end. */
interface Exchange {
  resolve: (reply: Http1Reply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class Connection {
  readonly socket: net.Socket;
  private pending: Exchange | undefined;
  private buf: Buffer = Buffer.alloc(0);
  /** Parsed head of the reply being read, once its blank line came. */
  private head:
    | {
        status: number;
        headers: Record<string, string>;
        bodyStart: number;
        length: number | 'chunked' | 'close';
        /** Keep-alive: the connection may carry the next request. */
        reusable: boolean;
      }
    | undefined;
  private dead = false;
  /** Idle: usable until this time (epoch ms). */
  idleUntil = Number.POSITIVE_INFINITY;

  constructor(
    private readonly pool: Http1Pool,
    host: string,
    port: number,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (c: Buffer) => this.onData(c));
    this.socket.on('error', (e) => this.onClose(e));
    this.socket.on('close', () => this.onClose());
    this.socket.on('end', () => this.onEnd());
  }

  send(data: string, exchange: Exchange): void {
    this.socket.ref();
    this.pending = exchange;
    this.buf = Buffer.alloc(0);
    this.head = undefined;
    this.socket.write(data);
  }

  /** Abandons the request in flight (timeout): the connection cannot be reused. */
  destroy(): void {
    this.pending = undefined;
    this.dead = true;
    this.pool.forget(this);
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (!this.pending) {
      // Bytes nobody asked for: the connection is out of step.
      this.destroy();
      return;
    }
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    try {
      this.parse();
    } catch (error) {
      this.fail(error as Error);
    }
  }

  private parse(): void {
    for (;;) {
      if (!this.head) {
        const end = this.buf.indexOf(CRLF2);
        if (end < 0) {
          if (this.buf.length > 1 << 20) throw new Error('HTTP reply head too large');
          return;
        }
        const lines = this.buf.toString('latin1', 0, end).split('\r\n');
        const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
        if (!m) throw new Error(`malformed HTTP reply: ${JSON.stringify(lines[0])}`);
        const status = Number(m[2]);
        const headers: Record<string, string> = Object.create(null);
        for (let i = 1; i < lines.length; i++) {
          const line = lines[i] as string;
          const colon = line.indexOf(':');
          if (colon <= 0) continue;
          const key = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
        }
        if (status >= 100 && status < 200) {
          // An interim reply (100 Continue, 103 Early Hints): the real one follows.
          this.buf = this.buf.subarray(end + 4);
          continue;
        }
        const te = headers['transfer-encoding'];
        const cl = headers['content-length'];
        const length =
          status === 204 || status === 304
            ? 0
            : te !== undefined && /chunked/i.test(te)
              ? 'chunked'
              : cl !== undefined
                ? Number(cl)
                : 'close';
        if (typeof length === 'number' && !(Number.isInteger(length) && length >= 0))
          throw new Error(`malformed Content-Length ${JSON.stringify(cl)}`);
        const connection = headers.connection ?? '';
        const reusable =
          length !== 'close' &&
          !/\bclose\b/i.test(connection) &&
          (m[1] === '1' || /\bkeep-alive\b/i.test(connection));
        this.head = { status, headers, bodyStart: end + 4, length, reusable };
      }
      const { length, bodyStart } = this.head;
      if (length === 'close') return; // the body ends with the connection (onEnd)
      if (length === 'chunked') {
        const body = dechunk(this.buf, bodyStart);
        if (body) this.finish(body);
        return;
      }
      if (this.buf.length - bodyStart >= length) {
        this.finish(this.buf.subarray(bodyStart, bodyStart + length));
      }
      return;
    }
  }

  private finish(body: Buffer): void {
    const exchange = this.pending;
    const head = this.head;
    this.pending = undefined;
    this.head = undefined;
    this.buf = Buffer.alloc(0);
    if (!exchange || !head) return;
    clearTimeout(exchange.timer);
    if (!head.reusable) {
      this.dead = true;
      this.pool.forget(this);
      this.socket.end();
    } else {
      // The server's `Keep-Alive: timeout=N` hint: the connection is let go a second before the
      // server would close it, so no request is sent on a connection being closed (as node:http).
      const hint = /\btimeout=(\d+)/i.exec(head.headers['keep-alive'] ?? '')?.[1];
      this.idleUntil =
        hint === undefined ? Number.POSITIVE_INFINITY : Date.now() + Number(hint) * 1000 - 1000;
      this.pool.release(this);
    }
    exchange.resolve({ status: head.status, headers: head.headers, body });
  }

  private onEnd(): void {
    if (this.pending && this.head?.length === 'close') {
      this.finish(this.buf.subarray(this.head.bodyStart));
      return;
    }
    this.onClose();
  }

  private onClose(error?: Error): void {
    if (this.dead && !this.pending) return;
    this.dead = true;
    this.pool.forget(this);
    this.fail(
      error ??
        Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' as string | undefined }),
    );
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const exchange = this.pending;
    this.pending = undefined;
    if (!exchange) return;
    clearTimeout(exchange.timer);
    this.dead = true;
    this.pool.forget(this);
    this.socket.destroy();
    exchange.reject(error);
  }
}

/**
 * A chunked body from `start`, or undefined while it is incomplete. Chunk extensions and trailers
 * are read past and dropped.
 */
export function dechunk(buf: Buffer, start: number): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const eol = buf.indexOf('\r\n', at, 'latin1');
    if (eol < 0) return undefined;
    const size = Number.parseInt(buf.toString('latin1', at, eol).split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size < 0) throw new Error('malformed chunked body');
    if (size === 0) {
      // Trailers (if any) end with a blank line.
      const end = buf.indexOf('\r\n\r\n', eol, 'latin1');
      if (end < 0) return undefined;
      return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    }
    if (buf.length < eol + 2 + size + 2) return undefined;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Keep-alive connections to one host:port; as many at once as requests in flight. */
export class Http1Pool {
  private readonly idle: Connection[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /**
   * Sends `head` (request line and headers, without Content-Length and the blank line) and `body`;
   * resolves with the whole reply. Rejects with the socket's error, or `onTimeout()`'s after
   * `timeoutMs`.
   */
  request(
    head: string,
    body: string,
    timeoutMs: number,
    onTimeout: () => Error,
  ): Promise<Http1Reply> {
    let conn = this.idle.pop();
    while (conn && conn.idleUntil <= Date.now()) {
      conn.destroy();
      conn = this.idle.pop();
    }
    conn ??= new Connection(this, this.host, this.port);
    return new Promise<Http1Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        conn.destroy();
        reject(onTimeout());
      }, timeoutMs);
      conn.send(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, {
        resolve,
        reject,
        timer,
      });
    });
  }

  release(conn: Connection): void {
    // An idle connection does not keep the process alive (as node:http's agent does it).
    conn.socket.unref();
    this.idle.push(conn);
  }

  forget(conn: Connection): void {
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** Closes the idle connections (tests). */
  close(): void {
    for (const c of this.idle.splice(0)) c.socket.destroy();
  }
}
