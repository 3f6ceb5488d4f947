// Rollout throughput: (1) a household run of 500 episodes with a scripted policy on the embedded
// stack (PGlite in a folder, IsolatedPool workers, trajectories persisted); (2) the same kind of run
// through BullMQ on the local Redis + a throw-away PostgreSQL database, with 1 and then 2 `harness
// worker` processes, and the ratio. Runnable alone: `npx tsx bench/rollouts.ts`.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { builtInBridges, getBridge } from '../bridges/index.ts';
import { config } from '../server/config.ts';
import { openDb } from '../server/db/index.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import { defaultEngine } from '../server/rollouts/default-engine.ts';
import type { LaunchRunInput, Rollouts } from '../server/rollouts/service.ts';
import { testRollouts } from '../server/rollouts/testing.ts';
import { obliterateQueues, REDIS_URL, startHarnessWorker } from '../server/testing/processes.ts';
import type { BenchRow } from './row.ts';

const POLICY = 'scripted:household-explorer';
const PG_ADMIN = 'postgresql://postgres@127.0.0.1:5432/postgres';

async function householdRun(tasks: number, seedsPerTask: number) {
  const bridge = await getBridge('household');
  if (!bridge) throw new Error('household bridge missing');
  const taskIds = (await bridge.listTasks({ split: 'eval_seen' })).slice(0, tasks).map((t) => t.id);
  const first = taskIds[0];
  if (!first) throw new Error('no household tasks');
  const spec: HarnessSpec = { version: 1, env: { type: 'base', bridge: 'household', task: first } };
  return { spec, taskIds, k: seedsPerTask };
}

async function timedRun(rollouts: Rollouts, input: LaunchRunInput) {
  const t0 = performance.now();
  const { runId } = await rollouts.launchRun(input);
  const summary = await rollouts.waitForRun(runId);
  const seconds = (performance.now() - t0) / 1000;
  return { runId, summary, seconds };
}

async function embedded(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-rollouts-'));
  const handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  const concurrency = config().ROLLOUT_CONCURRENCY;
  const rollouts = testRollouts(handle, defaultEngine(builtInBridges), { concurrency });
  try {
    const run = await householdRun(50, 10);
    // Warm the worker pool (thread start + module load happen once per process).
    await timedRun(rollouts, {
      spec: run.spec,
      taskIds: run.taskIds.slice(0, 4),
      policy: POLICY,
      k: 2,
      queue: 'local',
      concurrency,
    });
    const before = { ...rollouts.localQueue().recorder.stats };
    const load = loadavg()[0] ?? 0;
    const cpu0 = process.cpuUsage();
    const { runId, summary, seconds } = await timedRun(rollouts, {
      spec: run.spec,
      taskIds: run.taskIds,
      policy: POLICY,
      k: run.k,
      seed: 1000,
      queue: 'local',
      concurrency,
    });
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const stats = rollouts.localQueue().recorder.stats;
    const steps = await handle.db.step.count({ where: { episode: { runId } } });
    const n = summary.episodesDone;
    const m = summary.metrics;
    return [
      {
        name: `household ${n} episodes, embedded (PGlite, pool ${concurrency})`,
        value: n / seconds,
        unit: 'episodes/s',
        note: `${seconds.toFixed(1)} s, ${steps} steps persisted, success ${((m.successRate ?? 0) * 100).toFixed(0)}%, mean steps ${m.meanSteps?.toFixed(1)}, ${stats.flushes - before.flushes} write transactions, load average ${load.toFixed(1)}`,
      },
      {
        // CPU time of the whole process (main thread with PGlite + pool threads): what the run
        // costs however busy the machine is, and the rate two idle cores would give.
        name: 'embedded CPU time per episode (all threads)',
        value: cpuMs / n,
        unit: 'ms',
        note: `=> ${((2 * 1000 * n) / cpuMs).toFixed(0)} episodes/s on 2 idle cores`,
      },
    ];
  } finally {
    await rollouts.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** User + system CPU of a process so far (Linux /proc, 100 ticks a second), in ms. */
function procCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
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

async function scaleOut(): Promise<BenchRow[]> {
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
    const run = await householdRun(40, 10);
    const measure = async (workers: number, seed: number) => {
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
      const load = loadavg()[0] ?? 0;
      const cpu0 = started.map((s) => procCpuMs(s.child.pid));
      const r = await timedRun(rollouts, {
        spec: run.spec,
        taskIds: run.taskIds,
        policy: POLICY,
        k: run.k,
        seed,
        queue: 'bullmq',
      });
      const cpuMs = started.reduce((sum, s, i) => sum + procCpuMs(s.child.pid) - (cpu0[i] ?? 0), 0);
      await stopWorkers(started.map((s) => s.child));
      return {
        rate: r.summary.episodesDone / r.seconds,
        n: r.summary.episodesDone,
        seconds: r.seconds,
        load,
        cpuMs,
      };
    };
    const one = await measure(1, 2000);
    const two = await measure(2, 2000);
    return [
      {
        name: `BullMQ 1 worker (${one.n} household episodes, PostgreSQL)`,
        value: one.rate,
        unit: 'episodes/s',
        note: `${one.seconds.toFixed(1)} s, worker CPU ${(one.cpuMs / one.n).toFixed(1)} ms/episode, load average ${one.load.toFixed(1)}`,
      },
      {
        name: `BullMQ 2 workers (same run)`,
        value: two.rate,
        unit: 'episodes/s',
        note: `${two.seconds.toFixed(1)} s, worker CPU ${(two.cpuMs / two.n).toFixed(1)} ms/episode, load average ${two.load.toFixed(1)}`,
      },
      {
        name: 'BullMQ 2 workers / 1 worker',
        value: two.rate / one.rate,
        unit: 'x',
        note: 'target >= 1.7 (2 cores shared with the rest of the machine)',
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

export async function benchRollouts(
  parts: ('embedded' | 'bullmq')[] = ['embedded', 'bullmq'],
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  if (parts.includes('embedded')) rows.push(...(await embedded()));
  if (parts.includes('bullmq')) rows.push(...(await scaleOut()));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv
    .slice(2)
    .filter((a): a is 'embedded' | 'bullmq' => a === 'embedded' || a === 'bullmq');
  const rows = await benchRollouts(only.length > 0 ? only : undefined);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(58)} ${r.value.toFixed(2).padStart(10)} ${r.unit.padEnd(10)} ${r.note ?? ''}`,
    );
  process.exit(0);
}
