// Throw-away databases for tests: an in-memory PGlite, or a fresh database on the PostgreSQL server
// that runs on these machines (created per test file, dropped afterwards). Migrations applied.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { PrismaClient } from './generated/client.ts';
import { type DbHandle, openDb } from './index.ts';

export type TestDbKind = 'pglite' | 'postgres';

/** Trust auth on loopback, as on every project and CI machine here (STACK.md). */
export const TEST_PG_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDb extends DbHandle {
  /** The throw-away database's URL (postgres only), e.g. for a second process. */
  url?: string;
}

export async function createTestDb(
  kind: TestDbKind,
  o: { adminUrl?: string } = {},
): Promise<TestDb> {
  if (kind === 'pglite') return openDb({ kind: 'pglite', memory: true });

  const adminUrl = o.adminUrl ?? TEST_PG_ADMIN_URL;
  const name = `envharness_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let handle: DbHandle;
  try {
    handle = await openDb({ kind: 'postgres', url: url.toString() });
  } catch (e) {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw e;
  }
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Vitest helper: opens a throw-away database before the file's tests and drops it after them.
 * `const db = withTestDb('pglite'); it('…', async () => { await db().run.count(); })`
 */
export function withTestDb(kind: TestDbKind): () => PrismaClient {
  let handle: TestDb | undefined;
  beforeAll(async () => {
    handle = await createTestDb(kind);
  });
  afterAll(async () => {
    await handle?.close();
    handle = undefined;
  });
  return () => {
    if (!handle) throw new Error('withTestDb: the database is only available inside tests');
    return handle.db;
  };
}

/** Empties every table (keeping the migration history) so tests in one file start clean. */
export async function truncateAll(db: PrismaClient): Promise<void> {
  const tables = await db.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length === 0) return;
  const list = tables.map((t) => `"${t.tablename}"`).join(', ');
  await db.$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
}

/** Rows per table, for tests that prove a failed operation wrote nothing. */
export async function rowCounts(db: PrismaClient): Promise<Record<string, number>> {
  const tables = await db.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' ORDER BY tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint | number }[]>(
      `SELECT count(*) AS n FROM "${tablename}"`,
    );
    counts[tablename] = Number(row?.n ?? 0);
  }
  return counts;
}
