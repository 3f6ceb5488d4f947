import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyMigrations,
  createMigration,
  MIGRATIONS_DIR,
  MigrationError,
  migrationFolderName,
  migrationStatus,
  migrationsUpToDate,
  pendingSchemaDiff,
  readSchema,
} from './migrate.ts';
import { freshPGlite } from './pglite.ts';
import { PGliteMigrationFactory, PgMigrationFactory } from './schema-engine.ts';
import { createTestDb, TEST_PG_ADMIN_URL } from './testing.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const tmpDirs: string[] = [];
function tmpMigrations(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'envharness-migrations-'));
  tmpDirs.push(dir);
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

/** The schema with one more column, as a developer's next edit would look. */
const editedSchema = readSchema().replace(
  /model Run \{\n/,
  'model Run {\n  label String @default("")\n',
);

// The schema engine replays migrations in a shadow database: seconds, more on a crowded machine.
describe('migrations', { timeout: 120_000 }, () => {
  it('match the schema: no change is left unmigrated', async () => {
    expect(await pendingSchemaDiff()).toBe('');
  });

  it('notice a schema change, and db:new-migration writes it as a standard migration folder', async () => {
    expect(editedSchema).not.toBe(readSchema());
    const dir = tmpMigrations();
    const at = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    const created = await createMigration('Add run label', {
      migrationsDir: dir,
      schemaText: editedSchema,
      at,
    });
    expect(created?.name).toBe('20300102030405_add_run_label');
    const sql = readFileSync(path.join(dir, created!.name, 'migration.sql'), 'utf8');
    expect(sql).toMatch(/ALTER TABLE "Run" ADD COLUMN\s+"label" TEXT NOT NULL DEFAULT ''/);
    // Now in sync: a second run finds nothing to migrate.
    expect(
      await createMigration('again', { migrationsDir: dir, schemaText: editedSchema }),
    ).toBeUndefined();

    // The new migration applies on top of the committed ones, once.
    const { db: pglite } = await freshPGlite();
    try {
      const factory = () => new PGliteMigrationFactory(pglite);
      const first = await applyMigrations({ factory: factory(), migrationsDir: dir });
      expect(first).toEqual(
        readdirSync(dir)
          .filter((n) => n !== 'migration_lock.toml')
          .sort(),
      );
      expect(first.at(-1)).toBe(created!.name);
      expect(await applyMigrations({ factory: factory(), migrationsDir: dir })).toEqual([]);
      const cols = await pglite.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'Run' AND column_name = 'label'`,
      );
      expect(cols.rows).toHaveLength(1);
    } finally {
      await pglite.close();
    }
  });

  it('report a failing migration instead of recording it as applied', async () => {
    const dir = tmpMigrations();
    const name = migrationFolderName('broken', new Date(Date.UTC(2030, 0, 1)));
    mkdirSync(path.join(dir, name));
    writeFileSync(
      path.join(dir, name, 'migration.sql'),
      'ALTER TABLE "NoSuchTable" ADD COLUMN x INT;\n',
    );
    const { db: pglite } = await freshPGlite();
    try {
      const run = applyMigrations({
        factory: new PGliteMigrationFactory(pglite),
        migrationsDir: dir,
      });
      await expect(run).rejects.toThrow(MigrationError);
      await expect(run).rejects.toThrow(/NoSuchTable/);
      const status = await migrationStatus({
        factory: new PGliteMigrationFactory(pglite),
        migrationsDir: dir,
      });
      expect(status.failed).toEqual([name]);
    } finally {
      await pglite.close();
    }
  });

  it('report pending migrations on a database that has not run them (PGlite)', async () => {
    const { db: pglite } = await freshPGlite();
    try {
      const before = await migrationStatus({ factory: new PGliteMigrationFactory(pglite) });
      const all = readdirSync(MIGRATIONS_DIR).filter((n) => n !== 'migration_lock.toml');
      expect(before.pending).toEqual(all);
      await applyMigrations({ factory: new PGliteMigrationFactory(pglite) });
      const after = await migrationStatus({ factory: new PGliteMigrationFactory(pglite) });
      expect(after).toEqual({ applied: true, pending: [], edited: [], failed: [] });
    } finally {
      await pglite.close();
    }
  });

  it('are seen as up to date only when every folder migration is recorded with its checksum', async () => {
    const { db: pglite } = await freshPGlite();
    const query = async (sql: string) => (await pglite.query<Record<string, unknown>>(sql)).rows;
    try {
      expect(await migrationsUpToDate(query)).toBe(false);
      await applyMigrations({ factory: new PGliteMigrationFactory(pglite) });
      expect(await migrationsUpToDate(query)).toBe(true);

      const extra = tmpMigrations();
      const name = migrationFolderName('later', new Date(Date.UTC(2031, 0, 1)));
      mkdirSync(path.join(extra, name));
      writeFileSync(path.join(extra, name, 'migration.sql'), 'SELECT 1;\n');
      expect(await migrationsUpToDate(query, extra)).toBe(false);

      const edited = tmpMigrations();
      const first = readdirSync(edited).find((n) => n !== 'migration_lock.toml')!;
      const file = path.join(edited, first, 'migration.sql');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- edited\n`);
      expect(await migrationsUpToDate(query, edited)).toBe(false);
    } finally {
      await pglite.close();
    }
  });

  it('are applied on PostgreSQL and then report nothing pending', async () => {
    const t = await createTestDb('postgres');
    try {
      expect(t.applied.length).toBeGreaterThan(0);
      const status = await migrationStatus({ factory: new PgMigrationFactory(t.url!) });
      expect(status).toEqual({ applied: true, pending: [], edited: [], failed: [] });
    } finally {
      await t.close();
    }
    // The throw-away database is dropped with its handle.
    const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      new URL(t.url!).pathname.slice(1),
    ]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });

  it('the committed generated client was generated from this schema (run npm run db:generate)', () => {
    const cls = readFileSync(path.join(here, 'generated/internal/class.ts'), 'utf8');
    const m = cls.match(/"inlineSchema": ("(?:[^"\\]|\\.)*")/);
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1]!)).toBe(readSchema());
  });
});
