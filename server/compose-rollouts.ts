// The rollouts part of the composition root (compose.ts): an open database, the bridges, the engine,
// the run event log and the Rollouts service, wired as composeServices wires them. compose.ts builds
// everything else on top of it; `harness rollout` composes only this, so a 1-episode run does not
// load the studio's, the rigger's, the accounts' or the serving modules.
import '#server-only';

import type { BridgeRegistry } from '../bridges/index.ts';
import { bridgesFromConfig, warnLeftOut } from './bridges.ts';
import type { Config } from './config.ts';
import type { Db, DbHandle } from './db/index.ts';
import { defaultEngine, type EngineFactory } from './rollouts/default-engine.ts';
import type { RolloutEngine } from './rollouts/engine.ts';
import { RunEvents } from './rollouts/events.ts';
import { Rollouts } from './rollouts/service.ts';
import { skillBankOptions } from './skills/run-options.ts';

export interface RolloutServices {
  readonly config: Config;
  readonly db: Db;
  readonly dbKind: 'pglite' | 'postgres';
  readonly events: RunEvents;
  readonly rollouts: Rollouts;
  /** The built-in bridges and the configured environment servers (REMOTE_ENVS). */
  readonly bridges: BridgeRegistry;
  /** Stops the rollouts (after their running episodes) and the event log; the database stays open. */
  close(): Promise<void>;
}

export interface RolloutComposeOptions {
  config: Config;
  /** The open database; its owner closes it. */
  db: DbHandle;
  /** How episodes run (an engine, or a factory given the bridges): by default a worker-thread pool. */
  engine?: RolloutEngine | EngineFactory;
  /** The BullMQ queue name (tests isolate themselves on their own). */
  queueName?: string;
}

export function composeRollouts(o: RolloutComposeOptions): RolloutServices {
  const cfg = o.config;
  const db = o.db.db;
  const bridges = bridgesFromConfig(cfg, { onUnavailable: warnLeftOut() });
  const engine =
    typeof o.engine === 'function' ? o.engine(bridges) : (o.engine ?? defaultEngine(bridges));
  const events = new RunEvents(db, cfg.REDIS_URL);
  const rollouts = new Rollouts({
    db,
    dbKind: o.db.kind,
    engine,
    events,
    policyOptions: skillBankOptions(db, bridges),
    concurrency: cfg.ROLLOUT_CONCURRENCY,
    maxConcurrency: cfg.ROLLOUT_MAX_CONCURRENCY,
    maxWorkers: cfg.ROLLOUT_MAX_WORKERS,
    ...(cfg.REDIS_URL ? { redisUrl: cfg.REDIS_URL } : {}),
    ...(o.queueName ? { queueName: o.queueName } : {}),
  });
  let closed = false;
  return {
    config: cfg,
    db,
    dbKind: o.db.kind,
    events,
    rollouts,
    bridges,
    async close() {
      if (closed) return;
      closed = true;
      await rollouts.close().catch((e: unknown) => console.error('rollouts:', e));
      await events.close().catch(() => undefined);
    },
  };
}
