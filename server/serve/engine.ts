// Where served sessions' environments run. WorkerEngine (the default): worker threads, each holding
// the sessions assigned to it (a session stays on its thread), so hook code never runs on the
// server's thread and a hook stuck in a built-in costs only its thread (the pool's watchdog). A
// thread starts with its first session and stops when it has held none for `idleMs`, so dropped
// sessions leave no thread behind. InProcessEngine runs them on the calling thread (tests, benches).
import '#server-only';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Action, BridgeResolver, Evaluation, Json } from '../../bridges/core/types.ts';
import { IsolatedPool } from '../harness/worker-pool.ts';
import { type EpisodeStart, type OpenInput, ServedEpisodes, type StepOutcome } from './episodes.ts';

export interface SessionEngine {
  reset(input: OpenInput): Promise<EpisodeStart>;
  step(id: string, action: Action): Promise<StepOutcome>;
  evaluate(id: string): Promise<Evaluation>;
  state(id: string): Promise<Json>;
  /** Releases the session's environment (idempotent). */
  close(id: string): Promise<void>;
  /** Worker threads alive now. */
  workers(): number;
  /** Environments held now, over all threads. */
  environments(): Promise<number>;
  shutdown(): Promise<void>;
}

export class InProcessEngine implements SessionEngine {
  private readonly episodes: ServedEpisodes;
  constructor(bridges: BridgeResolver) {
    this.episodes = new ServedEpisodes(bridges);
  }
  reset(input: OpenInput) {
    return this.episodes.reset(input);
  }
  step(id: string, action: Action) {
    return this.episodes.step(id, action);
  }
  evaluate(id: string) {
    return this.episodes.evaluate(id);
  }
  async state(id: string) {
    return this.episodes.state(id);
  }
  close(id: string) {
    return this.episodes.close(id);
  }
  workers() {
    return 0;
  }
  async environments() {
    return this.episodes.open;
  }
  shutdown() {
    return this.episodes.closeAll();
  }
}

interface Shard {
  pool: IsolatedPool | undefined;
  sessions: Set<string>;
  idleTimer: NodeJS.Timeout | undefined;
}

const MODULE = fileURLToPath(new URL('./session-worker.ts', import.meta.url));

export class WorkerEngine implements SessionEngine {
  private readonly shards: Shard[];
  private readonly bySession = new Map<string, Shard>();
  private readonly idleMs: number;

  constructor(o: { threads?: number; idleMs?: number } = {}) {
    const threads = o.threads ?? Math.max(1, Math.min(8, availableParallelism()));
    this.idleMs = o.idleMs ?? 30_000;
    this.shards = Array.from({ length: threads }, () => ({
      pool: undefined,
      sessions: new Set<string>(),
      idleTimer: undefined,
    }));
  }

  /** The session's thread; a new session goes to the thread holding the fewest. */
  private shardOf(id: string): Shard {
    let shard = this.bySession.get(id);
    if (!shard) {
      shard = this.shards.reduce((a, b) => (b.sessions.size < a.sessions.size ? b : a));
      shard.sessions.add(id);
      this.bySession.set(id, shard);
    }
    clearTimeout(shard.idleTimer);
    shard.idleTimer = undefined;
    shard.pool ??= new IsolatedPool({ size: 1, module: MODULE });
    return shard;
  }

  private run<T>(id: string, handler: string, input: unknown): Promise<T> {
    return this.shardOf(id).pool!.run<T>(handler, input);
  }

  reset(input: OpenInput) {
    return this.run<EpisodeStart>(input.id, 'reset', input);
  }
  step(id: string, action: Action) {
    return this.run<StepOutcome>(id, 'step', { id, action });
  }
  evaluate(id: string) {
    return this.run<Evaluation>(id, 'evaluate', { id });
  }
  state(id: string) {
    return this.run<Json>(id, 'state', { id });
  }

  async close(id: string): Promise<void> {
    const shard = this.bySession.get(id);
    if (!shard) return;
    this.bySession.delete(id);
    shard.sessions.delete(id);
    await shard.pool?.run('close', { id }).catch(() => undefined);
    if (shard.sessions.size === 0 && shard.pool && !shard.idleTimer) {
      shard.idleTimer = setTimeout(() => {
        shard.idleTimer = undefined;
        if (shard.sessions.size > 0) return;
        const pool = shard.pool;
        shard.pool = undefined;
        void pool?.close();
      }, this.idleMs);
      shard.idleTimer.unref();
    }
  }

  workers(): number {
    return this.shards.reduce((n, s) => n + (s.pool?.workers ?? 0), 0);
  }

  async environments(): Promise<number> {
    const counts = await Promise.all(
      this.shards.map((s) => (s.pool ? s.pool.run<number>('open', {}) : Promise.resolve(0))),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  async shutdown(): Promise<void> {
    for (const shard of this.shards) {
      clearTimeout(shard.idleTimer);
      const pool = shard.pool;
      shard.pool = undefined;
      shard.sessions.clear();
      await pool?.close();
    }
    this.bySession.clear();
  }
}
