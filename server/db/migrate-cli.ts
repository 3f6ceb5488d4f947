// `npm run db:migrate` (apply to the configured database), `npm run db:new-migration -- <name>`
// (author a migration from the schema diff, on PGlite), `db:status` style checks.
// Exits explicitly: the wasm schema engine and PGlite can hold the event loop open.
import { PGlite } from '@electric-sql/pglite';
import { config } from '../config.ts';
import { configuredTarget, lockEmbeddedFolder, openDb } from './index.ts';
import { createMigration, migrationStatus, pendingSchemaDiff } from './migrate.ts';
import { PGliteMigrationFactory, PgMigrationFactory } from './schema-engine.ts';

const USAGE = `usage: tsx server/db/migrate-cli.ts <command>
  apply           apply pending migrations to the configured database (DATABASE_URL or DATA_DIR/pglite)
  create <name>   write prisma/migrations/<timestamp>_<name>/migration.sql from the schema diff
  status          migrations applied to the configured database, and whether the schema has unmigrated changes
  diff            print the SQL that the schema adds to the migrations (empty when in sync)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'apply': {
      const target = configuredTarget(config());
      const handle = await openDb(target);
      await handle.close();
      const where =
        target.kind === 'postgres'
          ? 'PostgreSQL (DATABASE_URL)'
          : `PGlite in ${'dir' in target ? target.dir : 'memory'}`;
      console.log(
        handle.applied.length
          ? `applied ${handle.applied.join(', ')} to ${where}`
          : `${where} is up to date`,
      );
      return 0;
    }
    case 'create': {
      const name = rest.join('_').trim();
      if (!name) {
        console.error('a migration name is required: npm run db:new-migration -- <name>');
        return 2;
      }
      const created = await createMigration(name);
      if (!created) {
        console.log('no schema changes: nothing to migrate');
        return 0;
      }
      console.log(`created prisma/migrations/${created.name}/migration.sql`);
      return 0;
    }
    case 'status': {
      const target = configuredTarget(config());
      let status: Awaited<ReturnType<typeof migrationStatus>>;
      if (target.kind === 'postgres') {
        status = await migrationStatus({ factory: new PgMigrationFactory(target.url) });
      } else {
        const dir = 'dir' in target ? target.dir : undefined;
        const release = dir ? lockEmbeddedFolder(dir) : () => {};
        const pglite = new PGlite(dir);
        try {
          status = await migrationStatus({ factory: new PGliteMigrationFactory(pglite) });
        } finally {
          await pglite.close();
          release();
        }
      }
      const drift = await pendingSchemaDiff();
      console.log(JSON.stringify({ ...status, schemaHasUnmigratedChanges: drift !== '' }, null, 2));
      return status.pending.length || status.failed.length || drift ? 1 : 0;
    }
    case 'diff': {
      const sql = await pendingSchemaDiff();
      if (sql) console.log(sql);
      return sql ? 1 : 0;
    }
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
