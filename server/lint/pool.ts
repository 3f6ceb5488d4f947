// One worker thread for `harness lint` / `harness audit`: the jobs of jobs.ts, away from the CLI's
// main thread, so a hook that loops in a built-in is stopped by the pool's watchdog.
import { fileURLToPath } from 'node:url';
import { IsolatedPool } from '../harness/worker-pool.ts';
import type { lintHandlers } from './jobs.ts';

const MODULE = fileURLToPath(new URL('./worker.ts', import.meta.url));

type Handlers = ReturnType<typeof lintHandlers>;

export interface LintPool {
  job<K extends keyof Handlers>(
    name: K,
    input: Parameters<Handlers[K]>[0],
  ): ReturnType<Handlers[K]>;
  close(): Promise<void>;
}

export function lintPool(): LintPool {
  const pool = new IsolatedPool({ size: 1, module: MODULE });
  return {
    job: (name, input) => pool.run(name, input) as never,
    close: () => pool.close(),
  };
}
