// One small IsolatedPool for the studio's own engine work (replays, checks, tests on trajectories,
// try-it sessions): user hook code never runs on the server's main thread.
import { fileURLToPath } from 'node:url';
import { IsolatedPool } from '../harness/worker-pool.ts';
import type { handlers } from './studio-handlers.ts';

type Handlers = typeof handlers;

export class StudioPool {
  private pool: IsolatedPool | undefined;

  job<K extends keyof Handlers>(
    handler: K,
    input: Parameters<Handlers[K]>[0],
  ): ReturnType<Handlers[K]> {
    this.pool ??= new IsolatedPool({
      size: 1,
      module: fileURLToPath(new URL('./studio-handlers.ts', import.meta.url)),
    });
    return this.pool.run(handler, input) as ReturnType<Handlers[K]>;
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = undefined;
    await p?.close();
  }
}
