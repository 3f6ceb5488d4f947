// One OpenEnv WebSocket session (`/ws`): JSON messages out, replies in the order they were asked for
// (the server answers one message at a time). Every failure of the connection or of a reply is an
// EnvInfraError naming the server and the message it happened on.
import WebSocket from 'ws';
import { EnvInfraError } from '../core/errors.ts';
import { type WSReply, WSReplyZ } from './protocol.ts';

interface Pending {
  what: string;
  resolve: (reply: WSReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

function issueText(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid reply';
  return `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`;
}

export class OpenEnvSession {
  private readonly pending: Pending[] = [];
  private closedWith: Error | undefined;

  private constructor(
    private readonly ws: WebSocket,
    private readonly where: string,
    private readonly timeoutMs: number,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', (code) =>
      this.fail(new EnvInfraError(`${where}: the server closed the session (code ${code})`)),
    );
    ws.on('error', (error) =>
      this.fail(new EnvInfraError(`${where}: ${error.message}`, { cause: error })),
    );
  }

  /** Opens `/ws` on the server (http(s) URLs become ws(s), as OpenEnv's client does). */
  static open(baseUrl: string, name: string, timeoutMs: number): Promise<OpenEnvSession> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;
    const where = `openenv env '${name}' (${url})`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, perMessageDeflate: false });
      const onError = (error: Error) => {
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        const code = (error as { code?: string }).code;
        reject(
          new EnvInfraError(`${where}: cannot open the session (${code ?? error.message})`, {
            cause: error,
          }),
        );
      };
      ws.once('error', onError);
      ws.once('open', () => {
        ws.off('error', onError);
        // Small messages, one at a time: send each at once.
        (
          ws as unknown as { _socket?: { setNoDelay?: (b: boolean) => void } }
        )._socket?.setNoDelay?.(true);
        resolve(new OpenEnvSession(ws, where, timeoutMs));
      });
    });
  }

  get open(): boolean {
    return this.closedWith === undefined && this.ws.readyState === WebSocket.OPEN;
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const p = this.pending.shift();
    if (!p) return; // an unasked reply: nothing waits for it
    clearTimeout(p.timer);
    const text = isBinary ? '' : data.toString();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const head = text.slice(0, 80).replace(/\s+/g, ' ');
      p.reject(
        new EnvInfraError(
          `${this.where}: the reply to ${p.what} is not JSON (${JSON.stringify(head)})`,
        ),
      );
      return;
    }
    const parsed = WSReplyZ.safeParse(json);
    if (!parsed.success) {
      p.reject(
        new EnvInfraError(
          `${this.where}: the reply to ${p.what} does not follow OpenEnv's protocol (${issueText(parsed.error)})`,
        ),
      );
      return;
    }
    p.resolve(parsed.data);
  }

  private fail(error: Error): void {
    this.closedWith ??= error;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }

  /** Sends a message; its reply comes back in order (several may be in flight: a pipeline). */
  request(message: Record<string, unknown>, what: string): Promise<WSReply> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new EnvInfraError(`${this.where}: no reply to ${what} within ${this.timeoutMs} ms`),
        );
        this.ws.terminate();
      }, this.timeoutMs);
      timer.unref();
      this.pending.push({ what, resolve, reject, timer });
      this.ws.send(JSON.stringify(message), (error) => {
        if (error)
          this.fail(new EnvInfraError(`${this.where}: cannot send ${what}: ${error.message}`));
      });
    });
  }

  /** Sends `{"type":"close"}` (best effort) and closes the socket; idempotent. */
  close(): void {
    if (this.ws.readyState === WebSocket.OPEN) {
      try {
        this.ws.send(JSON.stringify({ type: 'close' }));
      } catch {
        // The socket is going anyway.
      }
      this.ws.close(1000);
    } else if (this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.terminate();
    }
    this.fail(new EnvInfraError(`${this.where}: the session is closed`));
    // A server that never answers the close handshake must not keep the socket (and the process) alive.
    const t = setTimeout(() => this.ws.terminate(), 2_000);
    t.unref();
    this.ws.once('close', () => clearTimeout(t));
  }
}
