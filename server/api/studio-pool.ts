// One small IsolatedPool for the studio's own engine work (replays, checks, tests on trajectories).
import { fileURLToPath } from 'node:url';
import { IsolatedPool } from '../harness/worker-pool.ts';
import type { handlers } from './studio-handlers.ts';

let pool: IsolatedPool | undefined;

type Handlers = typeof handlers;

export function studioJob<K extends keyof Handlers>(
  handler: K,
  input: Parameters<Handlers[K]>[0],
): ReturnType<Handlers[K]> {
  pool ??= new IsolatedPool({
    size: 1,
    module: fileURLToPath(new URL('./studio-handlers.ts', import.meta.url)),
  });
  return pool.run(handler, input) as ReturnType<Handlers[K]>;
}

export async function closeStudioPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
