// The database: embedded PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set. One
// Prisma schema and client for both; pending migrations are applied whenever a database is opened.
import '#server-only';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { KindedError } from '../../bridges/core/errors.ts';
import type { Config } from '../config.ts';
import { PrismaClient } from './generated/client.ts';
import {
  applyMigrations,
  loadMigrations,
  migrationsFingerprint,
  migrationsUpToDate,
} from './migrate.ts';
import { freshPGlite, startOptions } from './pglite.ts';
import {
  ConnectionRetry,
  DEFAULT_DB_RETRY_MS,
  type RetryOptions,
  retryingAdapter,
} from './retry.ts';
import { PGliteMigrationFactory, PgMigrationFactory } from './schema-engine.ts';

export type {
  Approval,
  AuditLog,
  Candidate,
  Comparison,
  Diagnosis,
  Episode,
  Harness,
  HarnessVersion,
  Invite,
  Membership,
  Prisma,
  Project,
  Rig,
  Run,
  RunEvent,
  Skill,
  SkillBank,
  SkillEdit,
  Step,
  User,
} from './generated/client.ts';
export * from './generated/enums.ts';
export { PrismaClient };
export type Db = PrismaClient;

export type DbTarget =
  | { kind: 'pglite'; dir: string }
  | { kind: 'pglite'; memory: true }
  | { kind: 'postgres'; url: string };

export interface DbHandle {
  db: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** Migrations applied while opening (empty when the database was up to date). */
  applied: string[];
  /** Disconnects the client and releases the database (PGlite instance, pool, folder lock). */
  close(): Promise<void>;
}

export class DatabaseInUseError extends KindedError {
  readonly kind = 'conflict';
  override name = 'DatabaseInUseError';
}

export interface OpenOptions {
  /**
   * PostgreSQL only: how long connection-class failures (a server restart: 57P01/57P03,
   * ECONNREFUSED, a dropped socket) are retried with back-off before a call fails (retry.ts).
   * Default 60 s; `{ maxMs: 0 }` turns retries off.
   */
  retry?: RetryOptions;
}

/** Opens a database, applies pending migrations and returns a client. Tests and tools use this directly. */
export async function openDb(target: DbTarget, o: OpenOptions = {}): Promise<DbHandle> {
  return target.kind === 'postgres'
    ? openPostgres(target.url, new ConnectionRetry(o.retry ?? { maxMs: DEFAULT_DB_RETRY_MS }))
    : openPGlite(target);
}

const embeddedInstances = new WeakMap<PrismaClient, PGlite>();

/**
 * The PGlite instance under an embedded database's client (undefined on PostgreSQL), for a hot
 * path that cannot afford Prisma's raw-query parameter handling (rollouts/recorder.ts).
 */
export function pgliteOf(db: PrismaClient): PGlite | undefined {
  return embeddedInstances.get(db);
}

async function openPGlite(target: { dir: string } | { memory: true }): Promise<DbHandle> {
  const dir = 'dir' in target ? path.resolve(target.dir) : undefined;
  const release = dir ? lockEmbeddedFolder(dir) : () => {};
  let pglite: PGlite | undefined;
  try {
    // A new database (in memory, or a folder never initialised) starts as a copy of a cached,
    // already migrated cluster when there is one: no initdb, no migration run.
    let prepared: string[] = [];
    const isNew = !dir || !existsSync(path.join(dir, 'PG_VERSION'));
    let applied: string[];
    if (isNew) {
      if (dir) {
        if (readdirSync(dir).length > 0) {
          throw new Error(`${dir} is not empty and holds no PGlite database; refusing to use it`);
        }
        rmSync(dir, { recursive: true, force: true });
      }
      const fresh = await freshPGlite(
        {
          key: migrationsFingerprint(),
          prepare: async (db) => {
            prepared = await applyMigrations({ factory: new PGliteMigrationFactory(db) });
          },
        },
        dir,
      );
      pglite = fresh.db;
      applied = fresh.fromTemplate ? migrationNames() : prepared;
    } else {
      const instance = new PGlite(dir, await startOptions());
      pglite = instance;
      await instance.waitReady;
      const upToDate = await migrationsUpToDate(
        async (sql) => (await instance.query<Record<string, unknown>>(sql)).rows,
      );
      applied = upToDate
        ? []
        : await applyMigrations({ factory: new PGliteMigrationFactory(instance) });
    }
    const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    const instance = pglite;
    embeddedInstances.set(db, instance);
    let closed = false;
    return {
      db,
      kind: 'pglite',
      applied,
      async close() {
        if (closed) return;
        closed = true;
        await db.$disconnect();
        await instance.close();
        release();
      },
    };
  } catch (e) {
    if (pglite && !pglite.closed) await pglite.close().catch(() => {});
    release();
    throw e;
  }
}

async function openPostgres(url: string, retry: ConnectionRetry): Promise<DbHandle> {
  // Loaded here: a process on the embedded database never needs pg.
  const [{ default: pg }, { PrismaPg }] = await Promise.all([
    import('pg'),
    import('@prisma/adapter-pg'),
  ]);
  // A process started while the server restarts waits for it, like every later call.
  const upToDate = await retry.run(async () => {
    const probe = new pg.Client({ connectionString: url });
    probe.on('error', () => undefined); // a server going away mid-probe fails the query instead
    try {
      await probe.connect();
      return await migrationsUpToDate(async (sql) => (await probe.query(sql)).rows);
    } finally {
      await probe.end().catch(() => undefined);
    }
  });
  const applied = upToDate ? [] : await applyMigrations({ factory: new PgMigrationFactory(url) });
  const db = new PrismaClient({
    adapter: retryingAdapter(new PrismaPg({ connectionString: url }), retry),
    // Prisma gives up on starting a transaction after maxWait (2 s by default), which would cut
    // the adapter's retries of BEGIN short: a restart takes longer than that.
    transactionOptions: { maxWait: Math.max(2000, retry.maxMs) },
  });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    applied,
    async close() {
      if (closed) return;
      closed = true;
      await db.$disconnect();
    },
  };
}

/**
 * PGlite is single-process: two processes writing the same folder corrupt it. A pid file makes a
 * second opener fail with a clear message instead; a stale file from a dead process is taken over.
 */
export function lockEmbeddedFolder(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockPath = path.join(path.dirname(dir), `${path.basename(dir)}.lock`);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const onExit = () => rmSync(lockPath, { force: true });
      process.once('exit', onExit);
      return () => {
        process.off('exit', onExit);
        rmSync(lockPath, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DatabaseInUseError(
          `the embedded database ${dir} is open in process ${pid}; stop that process, or set DATABASE_URL to share a PostgreSQL server between processes`,
        );
      }
      if (pid === process.pid) {
        throw new DatabaseInUseError(
          `the embedded database ${dir} is already open in this process`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`could not lock the embedded database ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function migrationNames(): string[] {
  return loadMigrations().migrationDirectories.map((m) => m.path);
}

/** Where the configured database lives: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR. */
export function configuredTarget(c: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): DbTarget {
  return c.DATABASE_URL
    ? { kind: 'postgres', url: c.DATABASE_URL }
    : { kind: 'pglite', dir: path.join(c.DATA_DIR, 'pglite') };
}
