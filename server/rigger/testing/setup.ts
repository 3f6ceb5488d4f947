// Test set-up for EnvRigger: composed services on an in-memory database, with rollouts in the
// test's own thread (the worker pool's isolation is the rollout engine's concern and is tested
// there; here it would only add seconds of worker start-up per file on a shared machine).
import { afterAll, beforeAll } from 'vitest';
import type { Services } from '../../compose.ts';
import { type DbHandle, openDb } from '../../db/index.ts';
import { testServices } from '../../testing/services.ts';

export interface RigTestEnv {
  services: Services;
  db: Services['db'];
}

export function withRigServices(): () => RigTestEnv {
  let handle: DbHandle | undefined;
  let services: Services | undefined;
  beforeAll(async () => {
    handle = await openDb({ kind: 'pglite', memory: true });
    services = await testServices(handle);
  });
  afterAll(async () => {
    await services?.close();
    await handle?.close();
  });
  return () => {
    if (!services) throw new Error('withRigServices: only inside tests');
    return { services, db: services.db };
  };
}
