// Paths for the Prisma CLI (`prisma generate`). Migrations are driven by server/db/migrate.ts through
// the schema engine's wasm build, but keep Prisma's standard layout so the normal CLI can use them too.
import { defineConfig } from 'prisma/config';
import { config } from './server/config.ts';

const url = config().DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(url ? { datasource: { url } } : {}),
});
