// An IsolatedPool of one worker running the validation jobs (validate-worker.ts): what
// `harness validate` and the service's tests use. The studio runs the same jobs in its own pool.
import { fileURLToPath } from 'node:url';
import { IsolatedPool } from '../harness/worker-pool.ts';
import { poolRunner, type ValidationRunner } from './validate.ts';

const MODULE = fileURLToPath(new URL('./validate-worker.ts', import.meta.url));

export interface ValidationPool {
  runner: ValidationRunner;
  close(): Promise<void>;
}

export function validationPool(o: { hookLimitMs?: number } = {}): ValidationPool {
  const pool = new IsolatedPool({
    size: 1,
    module: MODULE,
    ...(o.hookLimitMs !== undefined ? { hookLimitMs: o.hookLimitMs } : {}),
  });
  return {
    runner: poolRunner((handler, input) => pool.run(handler, input)),
    close: () => pool.close(),
  };
}
