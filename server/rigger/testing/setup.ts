// Test set-up for EnvRigger: an in-memory database and rollouts in the test's own thread (the worker
// pool's isolation is the rollout engine's concern and is tested there; here it would only add
// seconds of worker start-up per file on a shared machine).
import { afterAll, beforeAll } from 'vitest';
import type { PrismaClient } from '../../db/generated/client.ts';
import { type DbHandle, openDb } from '../../db/index.ts';
import { setRolloutDb } from '../../rollouts/db.ts';
import { inProcessExecutor, validateRun } from '../../rollouts/default-engine.ts';
import { setRolloutEngine } from '../../rollouts/engine.ts';
import { closeRollouts } from '../../rollouts/service.ts';

export function withRigDb(): () => PrismaClient {
  let handle: DbHandle | undefined;
  beforeAll(async () => {
    handle = await openDb({ kind: 'pglite', memory: true });
    setRolloutDb(handle.db);
    setRolloutEngine({ validate: validateRun, executor: () => inProcessExecutor() });
  });
  afterAll(async () => {
    await closeRollouts();
    setRolloutEngine(undefined);
    setRolloutDb(undefined);
    await handle?.close();
  });
  return () => {
    if (!handle) throw new Error('withRigDb: only inside tests');
    return handle.db;
  };
}
