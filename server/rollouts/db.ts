// The database the rollout service uses: the shared client by default, an explicit one in tests
// (server/db/testing.ts gives throw-away PGlite and PostgreSQL databases).
import type { PrismaClient } from '../db/generated/client.ts';
import { getDb } from '../db/index.ts';

let override: PrismaClient | undefined;

export async function rolloutDb(): Promise<PrismaClient> {
  return override ?? getDb();
}

export function setRolloutDb(db: PrismaClient | undefined): void {
  override = db;
}

/** Whether an explicit database was given (tests, benches): it may be shared with other processes. */
export function hasRolloutDbOverride(): boolean {
  return override !== undefined;
}
