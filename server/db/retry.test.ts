// Connection-class failures are retried below Prisma with one status line per outage; anything
// else fails at once. The last test terminates a running statement's backend on the PostgreSQL
// server here (what a restart does to every session) and the caller still gets its rows.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDb } from './index.ts';
import { ConnectionRetry, connectionFailure, retryingAdapter } from './retry.ts';
import { createTestDb, type TestDb } from './testing.ts';

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

/** What adapter-pg throws: a DriverAdapterError whose cause carries the SQLSTATE. */
function adapterError(originalCode: string, originalMessage: string): Error {
  return Object.assign(new Error(originalMessage), {
    name: 'DriverAdapterError',
    cause: { kind: 'postgres', originalCode, originalMessage },
  });
}

describe('connectionFailure', () => {
  it('recognises a restart, a refused or dropped connection, through causes', () => {
    expect(connectionFailure(pgError('57P03', 'the database system is starting up'))).toBe(
      '57P03 the database system is starting up',
    );
    expect(connectionFailure(adapterError('57P01', 'terminating connection'))).toMatch(/^57P01/);
    expect(connectionFailure(pgError('57P02', 'crash shutdown'))).toMatch(/^57P02/);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(connectionFailure(new Error('wrapped', { cause: refused }))).toMatch(/^ECONNREFUSED/);
    expect(connectionFailure(new Error('read ECONNRESET', { cause: { code: 'ECONNRESET' } }))).toBe(
      'ECONNRESET',
    );
    expect(connectionFailure(new Error('Connection terminated unexpectedly'))).toBe(
      'Connection terminated unexpectedly',
    );
    expect(connectionFailure({ kind: 'DatabaseNotReachable' })).toBe('DatabaseNotReachable');
  });

  it('leaves every other error alone', () => {
    expect(connectionFailure(pgError('23505', 'duplicate key value'))).toBeUndefined();
    expect(connectionFailure(adapterError('57014', 'canceling statement'))).toBeUndefined();
    expect(connectionFailure(new Error('syntax error at or near "SELEC"'))).toBeUndefined();
    expect(connectionFailure('57P03')).toBeUndefined();
    expect(connectionFailure(undefined)).toBeUndefined();
  });
});

/** An adapter whose queries fail `failures` times with `error`, then answer. */
function flakyFactory(failures: number, error: () => Error) {
  const calls = { query: 0, begin: 0 };
  const adapter = {
    provider: 'postgres',
    adapterName: 'flaky',
    queryRaw: async () => {
      calls.query += 1;
      if (calls.query <= failures) throw error();
      return { columnNames: ['one'], columnTypes: [0], rows: [[1]] };
    },
    executeRaw: async () => 1,
    executeScript: async () => undefined,
    startTransaction: async () => {
      calls.begin += 1;
      if (calls.begin <= failures) throw error();
      return {} as never;
    },
    dispose: async () => undefined,
  } satisfies SqlDriverAdapter;
  const factory: SqlDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: 'flaky',
    connect: async () => adapter,
  };
  return { factory, calls };
}

const query = { sql: 'SELECT 1', args: [], argTypes: [] };

describe('retryingAdapter', () => {
  it('retries a query and BEGIN through an outage and reports it in two lines', async () => {
    const lines: string[] = [];
    const retry = new ConnectionRetry({ maxMs: 5000, minDelayMs: 5, status: (l) => lines.push(l) });
    const { factory, calls } = flakyFactory(3, () =>
      pgError('57P03', 'the database system is starting up'),
    );
    const conn = await retryingAdapter(factory, retry).connect();
    const [a, b] = await Promise.all([conn.queryRaw(query), conn.startTransaction()]);
    expect(a.rows).toEqual([[1]]);
    expect(b).toEqual({});
    expect(calls).toEqual({ query: 4, begin: 4 });
    // Two callers failing together: one line for the outage, one for the recovery.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'database unavailable, retrying (57P03 the database system is starting up)',
    );
    expect(lines[1]).toMatch(/^database available again after \d+\.\d s$/);
  });

  it('fails at once on other errors and gives up after maxMs', async () => {
    const lines: string[] = [];
    const retry = new ConnectionRetry({ maxMs: 200, minDelayMs: 20, status: (l) => lines.push(l) });
    const other = flakyFactory(1, () => pgError('23505', 'duplicate key value'));
    const conn = await retryingAdapter(other.factory, retry).connect();
    await expect(conn.queryRaw(query)).rejects.toThrow('duplicate key value');
    expect(other.calls.query).toBe(1);

    const down = flakyFactory(1000, () => pgError('57P01', 'terminating connection'));
    const conn2 = await retryingAdapter(down.factory, retry).connect();
    const started = Date.now();
    await expect(conn2.queryRaw(query)).rejects.toThrow('terminating connection');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(down.calls.query).toBeGreaterThan(2);
    expect(lines).toEqual(['database unavailable, retrying (57P01 terminating connection)']);
  });
});

describe('a PostgreSQL session terminated mid-statement (the server here)', () => {
  let test: TestDb;
  let handle: DbHandle | undefined;
  let admin: pg.Client;

  beforeAll(async () => {
    test = await createTestDb('postgres');
    admin = new pg.Client({ connectionString: test.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await handle?.close();
    await test?.close();
  });

  /** Runs a 1 s statement, terminates its backend (57P01) once it runs, and returns its result. */
  async function terminatedQuery(db: DbHandle['db']) {
    await db.$queryRaw`SELECT 1`; // connected, so the statement below starts at once
    const running = db.$queryRaw<{ one: number }[]>`SELECT pg_sleep(1)::text AS s, 1 AS one`.then(
      (rows) => rows,
    );
    // It may fail while the loop below still waits for the admin's reply: handled here, so that is
    // no unhandled rejection; the caller still gets it from the returned promise.
    running.catch(() => undefined);
    for (let i = 0; i < 100; i++) {
      const r = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE query LIKE '%pg_sleep(1)%' AND pid <> pg_backend_pid() AND datname = current_database()`,
      );
      if ((r.rowCount ?? 0) > 0) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    return running;
  }

  it('without retries the caller gets 57P01; with them, its rows', async () => {
    const off = await openDb({ kind: 'postgres', url: test.url! }, { retry: { maxMs: 0 } });
    await expect(terminatedQuery(off.db)).rejects.toThrow(/terminating connection/);
    await off.close();

    const lines: string[] = [];
    handle = await openDb(
      { kind: 'postgres', url: test.url! },
      { retry: { maxMs: 10_000, status: (l) => lines.push(l) } },
    );
    expect(await terminatedQuery(handle.db)).toEqual([{ s: '', one: 1 }]);
    expect(lines[0]).toMatch(/^database unavailable, retrying \(57P01 /);
    expect(lines[1]).toMatch(/^database available again after/);
  });
});
