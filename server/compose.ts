// The composition root: the one place that opens the database and wires the services together —
// rollouts with their engine, event log and queues; skill banks behind the rollouts' policy-options
// port; EnvRigger and its rig jobs; accounts; the studio's worker pool. The studio (main.ts), the
// CLI and the BullMQ worker all start here; tests compose with a throw-away database and an
// in-process engine.
import '#server-only';

import type { BridgeRegistry } from '../bridges/index.ts';
import { StudioPool } from './api/studio-pool.ts';
import { Accounts, authOptions } from './auth/service.ts';
import { Catalogue } from './catalogue.ts';
import { composeRollouts } from './compose-rollouts.ts';
import { type Config, config as readConfig } from './config.ts';
import { configuredTarget, type Db, type DbHandle, openDb } from './db/index.ts';
import { Drafts } from './harnesses/drafts.ts';
import { PlaySessions } from './play/sessions.ts';
import { rigQueueName } from './rigger/bullmq.ts';
import { RigJobs } from './rigger/jobs.ts';
import type { RigDeps } from './rigger/loop.ts';
import { runRig } from './rigger/loop.ts';
import type { EngineFactory } from './rollouts/default-engine.ts';
import type { RolloutEngine } from './rollouts/engine.ts';
import type { RunEvents } from './rollouts/events.ts';
import type { Rollouts } from './rollouts/service.ts';
import { StudioServing } from './serve/studio.ts';
import type { CompareDeps } from './skills/compare.ts';

export interface Services {
  readonly config: Config;
  readonly db: Db;
  readonly dbKind: 'pglite' | 'postgres';
  readonly events: RunEvents;
  readonly rollouts: Rollouts;
  readonly accounts: Accounts;
  /** Live co-editing of harness drafts, presence and "follow me". */
  readonly drafts: Drafts;
  /** The built-in bridges and the configured environment servers (REMOTE_ENVS). */
  readonly bridges: BridgeRegistry;
  readonly catalogue: Catalogue;
  /** The studio's own engine work (replays, checks, try-it), in a worker thread. */
  readonly studio: StudioPool;
  readonly play: PlaySessions;
  /** Harness versions served from this process as OpenEnv environments ("Serve to a trainer"). */
  readonly serving: StudioServing;
  /** What EnvRigger needs (database, rollouts). */
  rigDeps(): RigDeps;
  /** Rigs as jobs: start one (recorded, then queued like runs), resume, consume BullMQ rig jobs. */
  readonly rigs: RigJobs;
  /**
   * Start-up recovery, run by the studio at start: episodes of unfinished runs are dispatched again
   * (local runs here, BullMQ runs as the jobs Redis lost), then unfinished rigs (which wait for
   * those runs). From then on BullMQ runs get lost jobs back every RESUME_INTERVAL_MS and whenever
   * Redis is back (until close()).
   */
  resumeUnfinished(): Promise<{ runs: string[]; rigs: string[] }>;
  /** What the skill-source comparison needs (a store for what it persists, EnvRigger). */
  skillDeps(o?: { onProgress?: (text: string) => void }): CompareDeps;
  /** Releases everything opened here (rigs, queues after their running episodes, pools, Redis, database). */
  close(): Promise<void>;
}

export interface ComposeOptions {
  config?: Config;
  /** An open database (tests, benches, migrations tools): used as is and not closed by close(). */
  db?: DbHandle;
  /** How episodes run (an engine, or a factory given the bridges): by default a worker-thread pool. */
  engine?: RolloutEngine | EngineFactory;
  /** The BullMQ queue name (tests isolate themselves on their own). */
  queueName?: string;
}

export async function composeServices(o: ComposeOptions = {}): Promise<Services> {
  const cfg = o.config ?? readConfig();
  const handle =
    o.db ?? (await openDb(configuredTarget(cfg), { retry: { maxMs: cfg.DB_RETRY_MS } }));
  const owned = o.db === undefined;
  const core = composeRollouts({
    config: cfg,
    db: handle,
    ...(o.engine ? { engine: o.engine } : {}),
    ...(o.queueName ? { queueName: o.queueName } : {}),
  });
  const { db, bridges, events, rollouts } = core;
  const studio = new StudioPool();
  const play = new PlaySessions(studio);
  const serving = new StudioServing({ db, events, host: cfg.HOST });
  const rigDeps: RigDeps = { db, rollouts, bridges };
  const rigs = new RigJobs({
    deps: rigDeps,
    // A rig goes where its runs go: BullMQ with Redis and a shared PostgreSQL, else this process.
    queue: rollouts.preferredQueue(),
    ...(cfg.REDIS_URL ? { redisUrl: cfg.REDIS_URL } : {}),
    queueName: rigQueueName(o.queueName),
  });
  let closed = false;
  return {
    config: cfg,
    db,
    dbKind: handle.kind,
    events,
    rollouts,
    accounts: new Accounts(db, authOptions(cfg)),
    drafts: new Drafts(db),
    bridges,
    catalogue: new Catalogue(bridges),
    studio,
    play,
    serving,
    rigDeps: () => rigDeps,
    rigs,
    async resumeUnfinished() {
      const runs = await rollouts.resumeUnfinishedRuns();
      rollouts.startResumer({ intervalMs: cfg.RESUME_INTERVAL_MS });
      return { runs, rigs: await rigs.resumeUnfinished() };
    },
    skillDeps: (s = {}) => ({
      store: { db, events },
      bridges,
      runRig: (input) => runRig(rigDeps, input),
      ...(s.onProgress ? { onProgress: s.onProgress } : {}),
    }),
    async close() {
      if (closed) return;
      closed = true;
      play.closeAll();
      await serving.closeAll().catch((e: unknown) => console.error('serving:', e));
      // Rigs first: stopped between steps (they resume at the next start) before their runs stop.
      await rigs.close().catch((e: unknown) => console.error('rigs:', e));
      await studio.close().catch(() => undefined);
      await core.close();
      if (owned) await handle.close().catch((e: unknown) => console.error('db:', e));
    },
  };
}
