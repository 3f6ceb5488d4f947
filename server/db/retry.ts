// Connection-class failures of a PostgreSQL server (a restart, a failover, a dropped socket) are
// retried with back-off below Prisma, in the driver adapter, so that every caller — the CLI waiting
// for its run, the studio, BullMQ workers — rides out a restart instead of dying with `57P03`. A
// statement that fails this way did not commit (the server refused it or rolled the session back),
// except in the one case a socket dies after COMMIT was sent and before its reply; the writes that
// matter here are compare-and-set (rollouts/recorder.ts), so running one again is harmless.
// Statements inside a transaction are not retried one by one: the transaction is gone with its
// connection, and it fails as a whole (the recorder retries its batches whole).
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from '@prisma/driver-adapter-utils';
import { Outage, type StatusLine } from '../outage.ts';

/** SQLSTATE and socket codes of a server that is going away, restarting, or not reachable. */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
]);

/** Adapter error kinds (@prisma/driver-adapter-utils MappedError) of the same failures. */
const CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed']);

const CONNECTION_MESSAGES =
  /connection terminated|terminating connection|the database system is (starting up|shutting down|not yet accepting connections|in recovery mode)|client has encountered a connection error|connection is closed|server closed the connection unexpectedly/i;

interface ErrorLike {
  code?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * Why `error` is a connection-class failure ("57P03 the database system is starting up",
 * "ECONNREFUSED"), or undefined when it is not one (a constraint, a syntax error, a timeout of a
 * running statement): only those are retried. Looks through `cause` (adapter and Prisma errors).
 */
export function connectionFailure(error: unknown): string | undefined {
  const chain: ErrorLike[] = [];
  for (let e: unknown = error; chain.length < 6 && e && typeof e === 'object'; ) {
    chain.push(e as ErrorLike);
    e = (e as ErrorLike).cause;
  }
  const text = (x: ErrorLike) =>
    typeof x.originalMessage === 'string'
      ? x.originalMessage
      : typeof x.message === 'string'
        ? x.message
        : '';
  // The SQLSTATE or socket code says it best; adapter kinds and messages are the fall-backs.
  for (const x of chain) {
    for (const code of [x.code, x.originalCode]) {
      if (typeof code === 'string' && CONNECTION_CODES.has(code)) {
        const message = text(x);
        return `${code}${message && !message.includes(code) ? ` ${message}` : ''}`.slice(0, 200);
      }
    }
  }
  for (const x of chain) {
    if (typeof x.kind === 'string' && CONNECTION_KINDS.has(x.kind)) return x.kind;
    const message = text(x);
    if (CONNECTION_MESSAGES.test(message)) return message.split('\n')[0]?.slice(0, 200);
  }
  return undefined;
}

export interface RetryOptions {
  /** Give up when a call has failed for this long (0: never retry). */
  maxMs: number;
  /** First back-off; doubled after each failure up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Where the one-line status of an outage goes (stderr by default). */
  status?: StatusLine;
}

export const DEFAULT_DB_RETRY_MS = 60_000;

/** Runs calls again while they fail with connection-class errors, reporting one line per outage. */
export class ConnectionRetry {
  readonly outage: Outage;
  private readonly minDelay: number;
  private readonly maxDelay: number;

  constructor(private readonly o: RetryOptions) {
    this.outage = new Outage('database', o.status);
    this.minDelay = o.minDelayMs ?? 100;
    this.maxDelay = o.maxDelayMs ?? 2000;
  }

  get maxMs(): number {
    return this.o.maxMs;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    const started = Date.now();
    let delay = this.minDelay;
    for (;;) {
      try {
        const value = await call();
        this.outage.up();
        return value;
      } catch (error) {
        const reason = connectionFailure(error);
        if (reason === undefined || Date.now() - started + delay > this.o.maxMs) throw error;
        this.outage.down(reason);
        // Jitter keeps the processes of a fleet from reconnecting in lockstep.
        await new Promise((r) => setTimeout(r, delay * (0.75 + Math.random() * 0.5)));
        delay = Math.min(delay * 2, this.maxDelay);
      }
    }
  }
}

/** A driver adapter factory whose connections retry through `retry` (see the file's comment). */
export function retryingAdapter(
  inner: SqlDriverAdapterFactory,
  retry: ConnectionRetry,
): SqlDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => retryingConnection(await retry.run(() => inner.connect()), retry),
  };
}

function retryingConnection(a: SqlDriverAdapter, retry: ConnectionRetry): SqlDriverAdapter {
  const wrapped: SqlDriverAdapter = {
    provider: a.provider,
    adapterName: a.adapterName,
    queryRaw: (q: SqlQuery) => retry.run(() => a.queryRaw(q)),
    executeRaw: (q: SqlQuery) => retry.run(() => a.executeRaw(q)),
    // A script is several statements: one that failed halfway cannot simply run again.
    executeScript: (script: string) => a.executeScript(script),
    // Getting a connection and BEGIN are retried; the statements of the transaction are not.
    startTransaction: (level?: IsolationLevel): Promise<Transaction> =>
      retry.run(() => a.startTransaction(level)),
    dispose: () => a.dispose(),
  };
  const info = a.getConnectionInfo?.bind(a);
  if (info) wrapped.getConnectionInfo = info;
  return wrapped;
}
