// Rollouts through BullMQ on the local Redis and a throw-away PostgreSQL database, with 1 and then 2
// `harness worker` processes: the ratio, the CPU per episode of each part (workers, the database's
// backends, Redis, the producer) and the ceiling those give with the parts on separate machines.
// Part of bench/rollouts.ts (`npx tsx bench/rollouts.ts bullmq`).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { builtInBridges } from '../bridges/index.ts';
import { openDb } from '../server/db/index.ts';
import { defaultEngine } from '../server/rollouts/default-engine.ts';
import { testRollouts } from '../server/rollouts/testing.ts';
import { obliterateQueues, REDIS_URL, startHarnessWorker } from '../server/testing/processes.ts';
import { householdRun, POLICY, procCpuMs, timedRun } from './household-runs.ts';
import { type BenchRow, loadNow } from './row.ts';

const PG_ADMIN = 'postgresql://postgres@127.0.0.1:5432/postgres';

async function admin<T = unknown>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * CPU of the PostgreSQL backends serving one database (pg_stat_statements is not preloaded on the
 * local server, and it times statements rather than CPU): /proc of each backend pid. A backend that
 * ends inside the window takes its CPU with it; `lost` counts them.
 */
async function backendsCpu(database: string): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
    database,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = procCpuMs(pid);
    if (ms !== undefined) cpu.set(pid, ms);
  }
  return cpu;
}

/** Redis's own CPU so far (INFO cpu: its whole process, whoever else uses the server), in ms. */
async function redisCpuMs(): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  try {
    const info = await redis.info('cpu');
    const field = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
  } finally {
    redis.disconnect();
  }
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}

interface ScaleMeasure {
  rate: number;
  n: number;
  seconds: number;
  load: number;
  /** CPU per episode (ms) of the workers, the database's backends, Redis and this process. */
  worker: number;
  postgres: number;
  redis: number;
  producer: number;
  lostBackends: number;
}

export async function scaleOut(): Promise<BenchRow[]> {
  const name = `bench_rollouts_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  const handle = await openDb({ kind: 'postgres', url: url.toString() });
  const queueName = `bench-episodes-${randomBytes(4).toString('hex')}`;
  const rollouts = testRollouts(handle, defaultEngine(builtInBridges), {
    redisUrl: REDIS_URL,
    queueName,
  });
  const env = { DATABASE_URL: url.toString(), REDIS_URL };
  const children: ChildProcess[] = [];
  try {
    const run = await householdRun(25, 10);
    const measure = async (workers: number, seed: number): Promise<ScaleMeasure> => {
      const started = Array.from({ length: workers }, () =>
        startHarnessWorker(['--inline', '--concurrency', '2', '--queue-name', queueName], env),
      );
      children.push(...started.map((s) => s.child));
      await Promise.all(started.map((s) => s.ready));
      // a small warm-up so each worker has loaded the bridge and policy
      await timedRun(rollouts, {
        spec: run.spec,
        taskIds: run.taskIds.slice(0, 2 * workers),
        policy: POLICY,
        k: 2,
        seed: seed + 500,
        queue: 'bullmq',
      });
      const load = loadNow();
      const workers0 = started.map((s) => procCpuMs(s.child.pid) ?? 0);
      const pg0 = await backendsCpu(name);
      const redis0 = await redisCpuMs();
      const producer0 = process.cpuUsage();
      const r = await timedRun(rollouts, {
        spec: run.spec,
        taskIds: run.taskIds,
        policy: POLICY,
        k: run.k,
        seed,
        queue: 'bullmq',
      });
      const producer = process.cpuUsage(producer0);
      const redis = (await redisCpuMs()) - redis0;
      const pg1 = await backendsCpu(name);
      const worker = started.reduce(
        (sum, s, i) => sum + (procCpuMs(s.child.pid) ?? 0) - (workers0[i] ?? 0),
        0,
      );
      let postgres = 0;
      for (const [pid, ms] of pg1) postgres += ms - (pg0.get(pid) ?? 0);
      const lostBackends = [...pg0.keys()].filter((pid) => !pg1.has(pid)).length;
      await stopWorkers(started.map((s) => s.child));
      const n = r.summary.episodesDone;
      return {
        rate: n / r.seconds,
        n,
        seconds: r.seconds,
        load,
        worker: worker / n,
        postgres: postgres / n,
        redis: redis / n,
        producer: (producer.user + producer.system) / 1000 / n,
        lostBackends,
      };
    };
    const one = await measure(1, 2000);
    const two = await measure(2, 2000);
    // With each part on a machine of its own, a part can serve 1000 / (its CPU ms per episode)
    // episodes a second per core: W single-threaded workers, and PostgreSQL, Redis (single-threaded)
    // and the producer on one core each. Figures of the 1-worker run (the least contended).
    const perCore = (ms: number) => (ms > 0 ? 1000 / ms : Number.POSITIVE_INFINITY);
    const ceiling = (w: number) => {
      const bounds: [string, number][] = [
        [`${w} workers`, w * perCore(one.worker)],
        ['PostgreSQL', perCore(one.postgres)],
        ['Redis', perCore(one.redis)],
        ['producer', perCore(one.producer)],
      ];
      return bounds.reduce((a, b) => (b[1] < a[1] ? b : a));
    };
    const part = (m: ScaleMeasure) =>
      `${m.n} episodes, ${m.seconds.toFixed(1)} s, load average ${m.load.toFixed(1)}`;
    const w4 = ceiling(4);
    return [
      {
        name: `BullMQ 1 worker (${one.n} household episodes, PostgreSQL)`,
        value: one.rate,
        unit: 'episodes/s',
        note: `${one.seconds.toFixed(1)} s, worker CPU ${one.worker.toFixed(1)} ms/episode`,
        load: one.load,
      },
      {
        name: `BullMQ 2 workers (same run)`,
        value: two.rate,
        unit: 'episodes/s',
        note: `${two.seconds.toFixed(1)} s, worker CPU ${two.worker.toFixed(1)} ms/episode`,
        load: two.load,
      },
      {
        name: 'BullMQ 2 workers / 1 worker',
        value: two.rate / one.rate,
        unit: 'x',
        note: 'target >= 1.7 (2 cores shared with the rest of the machine)',
        load: two.load,
      },
      {
        id: 'bullmq.worker_cpu_ms_per_episode',
        name: 'BullMQ worker CPU per episode (1 worker)',
        value: one.worker,
        unit: 'ms',
        note: `harness worker --inline, all its threads; ${part(one)}; 2 workers: ${two.worker.toFixed(2)}`,
        load: one.load,
      },
      {
        id: 'bullmq.postgres_cpu_ms_per_episode',
        name: 'BullMQ PostgreSQL backends CPU per episode',
        value: one.postgres,
        unit: 'ms',
        note: `/proc of the run database's backends (WAL writer, checkpointer not counted; ${one.lostBackends} backends ended in the window); 2 workers: ${two.postgres.toFixed(2)}`,
        load: one.load,
      },
      {
        id: 'bullmq.redis_cpu_ms_per_episode',
        name: 'BullMQ Redis CPU per episode',
        value: one.redis,
        unit: 'ms',
        note: `INFO cpu of the whole server: other users of the local Redis count too; 2 workers: ${two.redis.toFixed(2)}`,
        load: one.load,
      },
      {
        id: 'bullmq.producer_cpu_ms_per_episode',
        name: 'BullMQ producer CPU per episode',
        value: one.producer,
        unit: 'ms',
        note: `this process: launch, enqueue, live events, wait; 2 workers: ${two.producer.toFixed(2)}`,
        load: one.load,
      },
      {
        id: 'bullmq.projected_eps_w4',
        name: 'BullMQ projected episodes/s, 4 workers on separate machines',
        value: w4[1],
        unit: 'episodes/s',
        note: `bound by ${w4[0]}; one core per worker, PostgreSQL, Redis and producer one core each; W=1: ${ceiling(1)[1].toFixed(0)}, W=2: ${ceiling(2)[1].toFixed(0)}, W=8: ${ceiling(8)[1].toFixed(0)} (${ceiling(8)[0]}), W=16: ${ceiling(16)[1].toFixed(0)} (${ceiling(16)[0]})`,
        load: one.load,
      },
    ];
  } finally {
    await stopWorkers(children);
    await rollouts.close();
    await obliterateQueues(REDIS_URL, [queueName]);
    await rollouts.events.close();
    await handle.close();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}
