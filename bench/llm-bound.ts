// LLM-bound rollouts: household episodes of `openai:fake-model` against the fake OpenAI server (a
// separate process) answering every request 200 ms late, so the episodes only wait. Throughput
// should be in-flight / latency. (1) Embedded (PGlite, one process): runs at rising concurrency
// until throughput stops growing; (2) one `harness worker` on BullMQ + PostgreSQL at 256.
// Throughput is counted in steps (one model request each) at the fake server, in a window of 8
// latencies opened once the server holds 90% of the in-flight requests (or a quarter after 2 s): it falls
// mostly within the first wave of 10-step episodes, so it measures the steady cost of steps, with
// few claims and records of episodes in it. CPU per step is the process's (all of it: PGlite too
// when embedded) over the window; memory is the live heap (embedded, after a forced GC) or RSS
// growth over the idle process, per in-flight episode. The fake server shares the machine: under
// load it answers late too ("a step took"). `npx tsx bench/llm-bound.ts` runs it alone;
// LLM_BOUND_POINTS=256 measures only those embedded points, LLM_BOUND_ONLY=embedded|bullmq one half.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { builtInBridges, getBridge } from '../bridges/index.ts';
import { openDb } from '../server/db/index.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import { defaultEngine } from '../server/rollouts/default-engine.ts';
import { RunEvents } from '../server/rollouts/events.ts';
import { Rollouts } from '../server/rollouts/service.ts';
import {
  obliterateQueues,
  REDIS_URL,
  ROOT,
  startHarnessWorker,
} from '../server/testing/processes.ts';
import { type BenchRow, measured } from './row.ts';

const LATENCY_MS = 200;
const STEPS = 10;
const PG_ADMIN = 'postgresql://postgres@127.0.0.1:5432/postgres';
const POLICY = 'openai:fake-model';

interface Fake {
  url: string;
  stats(): Promise<{ answered: number; inFlight: number }>;
  child: ChildProcess;
}

async function startFake(): Promise<Fake> {
  const child = spawn(
    process.execPath,
    [
      // e.g. LLM_BOUND_FAKE_NODE_ARGS=--cpu-prof to profile the fake server too.
      ...(process.env.LLM_BOUND_FAKE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      path.join(ROOT, 'server/policies/testing/fake-openai-server.mjs'),
      '--mode',
      'tools',
      '--delay-ms',
      String(LATENCY_MS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /on (http:\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`fake server exited: ${out}`)));
  });
  return {
    url,
    child,
    stats: async () => (await fetch(`${url}/fake/stats`)).json(),
  };
}

async function household(tasks: number) {
  const bridge = await getBridge('household');
  if (!bridge) throw new Error('household bridge missing');
  const taskIds = (await bridge.listTasks({ split: 'eval_seen' })).slice(0, tasks).map((t) => t.id);
  const spec: HarnessSpec = {
    version: 1,
    env: { type: 'base', bridge: 'household', task: taskIds[0] ?? '' },
  };
  return { spec, taskIds };
}

/** User + system CPU of a process (this one: undefined) so far, in ms. */
function cpuMs(pid?: number): number {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process (this one: undefined), in MB. */
function rssMb(pid?: number): number {
  if (pid === undefined) return process.memoryUsage.rss() / 2 ** 20;
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** This process's live JS heap after a full GC, in MB. */
function liveHeapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Point {
  inFlight: number;
  /** Requests waiting at the server, mean over the window (Little's law check). */
  seenInFlight: number;
  stepsPerS: number;
  efficiency: number;
  /** RSS growth over the idle process per in-flight episode (peak in the window). */
  rssMbPerEpisode: number;
  /** CPU of the process running the episodes per step in the window (this one: the bench's own polling too). */
  cpuMsPerStep: number;
  /** In-flight ÷ throughput: the latency the episodes saw, the fake server's lateness included. */
  seenLatencyMs: number;
  /** CPU of the fake server per step in the window (it shares the machine). */
  fakeCpuMsPerStep: number;
  /** Live heap growth per in-flight episode (this process only). */
  heapMbPerEpisode?: number;
}

/**
 * One run of 2 × `inFlight` episodes: the window opens once the server holds 90% of `inFlight`
 * requests (or, after 2 s, a quarter of them), lasts (STEPS − 2) latencies, and the run is
 * cancelled after it.
 */
async function point(
  rollouts: Rollouts,
  fake: Fake,
  run: { spec: HarnessSpec; taskIds: string[] },
  inFlight: number,
  queue: 'local' | 'bullmq',
  pid?: number,
): Promise<Point> {
  const idleHeap = pid === undefined ? liveHeapMb() : undefined;
  const idleRss = rssMb(pid);
  const k = Math.ceil((2 * inFlight) / run.taskIds.length);
  const t0 = performance.now();
  const { runId } = await rollouts.launchRun({
    spec: run.spec,
    taskIds: run.taskIds,
    policy: POLICY,
    k,
    maxSteps: STEPS,
    concurrency: inFlight,
    queue,
    policyOptions: { baseUrl: fake.url },
  });
  let s = await fake.stats();
  // A queue that starts slowly (BullMQ under load) gets up to 8 s to have a quarter in flight.
  const ramped = () => {
    const ms = performance.now() - t0;
    return (
      s.inFlight >= inFlight * 0.9 || (ms >= 2000 && s.inFlight >= inFlight * 0.25) || ms >= 8000
    );
  };
  while (!ramped()) {
    await sleep(20);
    s = await fake.stats();
  }
  const w0 = performance.now();
  const cpu0 = cpuMs(pid);
  const fakeCpu0 = cpuMs(fake.child.pid);
  const a0 = s.answered;
  const samples: { inFlight: number; rss: number }[] = [];
  while (performance.now() - w0 < (STEPS - 2) * LATENCY_MS) {
    await sleep(100);
    s = await fake.stats();
    samples.push({ inFlight: s.inFlight, rss: rssMb(pid) });
  }
  const steps = s.answered - a0;
  const seconds = (performance.now() - w0) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  const fakeCpu = cpuMs(fake.child.pid) - fakeCpu0;
  const heap = idleHeap === undefined ? undefined : liveHeapMb();
  const summary = await rollouts.getRunSummary(runId);
  await rollouts.cancelRun(runId);
  if (summary.metrics.errors > 0) throw new Error(`${summary.metrics.errors} episodes errored`);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const stepsPerS = steps / seconds;
  const seenInFlight = mean(samples.map((x) => x.inFlight));
  return {
    inFlight,
    seenInFlight,
    stepsPerS,
    cpuMsPerStep: cpu / Math.max(1, steps),
    fakeCpuMsPerStep: fakeCpu / Math.max(1, steps),
    seenLatencyMs: (1000 * inFlight) / Math.max(1, stepsPerS),
    efficiency: stepsPerS / (inFlight / (LATENCY_MS / 1000)),
    rssMbPerEpisode: (Math.max(...samples.map((x) => x.rss)) - idleRss) / inFlight,
    ...(heap !== undefined && idleHeap !== undefined
      ? { heapMbPerEpisode: (heap - idleHeap) / inFlight }
      : {}),
  };
}

/** A short run so the bridge, policy, SDK and database paths are loaded before anything is timed. */
async function warmUp(
  rollouts: Rollouts,
  fake: Fake,
  run: { spec: HarnessSpec; taskIds: string[] },
  queue: 'local' | 'bullmq',
): Promise<void> {
  const { runId } = await rollouts.launchRun({
    spec: run.spec,
    taskIds: run.taskIds.slice(0, 4),
    policy: POLICY,
    maxSteps: 2,
    concurrency: 4,
    queue,
    policyOptions: { baseUrl: fake.url },
  });
  await rollouts.waitForRun(runId);
}

const describePoint = (p: Point) =>
  `${p.inFlight} asked: ${p.seenInFlight.toFixed(0)} waiting at the server, ${p.stepsPerS.toFixed(0)} steps/s of ${(p.inFlight / (LATENCY_MS / 1000)).toFixed(0)} ideal (a step took ${p.seenLatencyMs.toFixed(0)} ms), CPU ${p.cpuMsPerStep.toFixed(2)} ms/step (fake server ${p.fakeCpuMsPerStep.toFixed(2)}), RSS +${p.rssMbPerEpisode.toFixed(2)} MB/episode${p.heapMbPerEpisode !== undefined ? `, heap +${p.heapMbPerEpisode.toFixed(3)} MB/episode` : ''}`;

async function embedded(fake: Fake): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-llm-bound-'));
  const handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  const rollouts = new Rollouts({
    db: handle.db,
    dbKind: handle.kind,
    engine: defaultEngine(builtInBridges),
    events: new RunEvents(handle.db),
    concurrency: 2,
    maxConcurrency: 4096,
  });
  try {
    const run = await household(20);
    // Warm-up: bridge, policy, SDK and database paths loaded once.
    await warmUp(rollouts, fake, run, 'local');
    const points: Point[] = [];
    const only = process.env.LLM_BOUND_POINTS?.split(',').map(Number);
    for (const n of only ?? [64, 256, 512, 1024]) {
      const p = await point(rollouts, fake, run, n, 'local');
      points.push(p);
      console.log(`  embedded: ${describePoint(p)}`);
      const prev = points.at(-2);
      // Up to 512 always (one noisy point must not end the search below the goal of 256); past
      // it, only while throughput still grows by a quarter.
      if (n >= 512 && prev && p.stepsPerS < prev.stepsPerS * 1.25) break;
    }
    const best = points.reduce((a, b) => (b.stepsPerS > a.stepsPerS ? b : a));
    const at256 = points.find((p) => p.inFlight === 256) ?? best;
    return [
      measured({
        id: 'rollouts.llm_bound_in_flight',
        name: 'LLM-bound in flight where throughput stops growing, embedded',
        value: best.inFlight,
        unit: 'episodes',
        note: `${best.stepsPerS.toFixed(0)} steps/s there; ${points.map(describePoint).join('; ')}`,
      }),
      measured({
        id: 'rollouts.llm_bound_efficiency',
        name: 'LLM-bound efficiency at 256 in flight, embedded',
        value: at256.efficiency,
        unit: 'x',
        note: `steps/s ÷ (in-flight / ${LATENCY_MS} ms), a step = one model request; goal >= 0.9; ${((100 * at256.seenInFlight) / at256.inFlight).toFixed(0)}% of the episodes were waiting at the server, which itself answered in ${((1000 * at256.seenInFlight) / Math.max(1, at256.stepsPerS)).toFixed(0)} ms; CPU ${at256.cpuMsPerStep.toFixed(2)} ms/step => one idle core keeps up with ${Math.round(LATENCY_MS / at256.cpuMsPerStep)} in flight`,
      }),
      measured({
        id: 'rollouts.llm_bound_mb_per_episode',
        name: 'LLM-bound live heap per in-flight episode (256), embedded',
        value: at256.heapMbPerEpisode ?? Number.NaN,
        unit: 'MB',
        note: `JS heap after a forced GC with 256 in flight minus idle, ÷ 256 (episodes, SDK, recorder queues; no sandbox: no hook code); RSS +${at256.rssMbPerEpisode.toFixed(2)} MB/episode; goal <= 2 MB`,
      }),
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

async function bullmq(fake: Fake): Promise<BenchRow[]> {
  const name = `bench_llm_bound_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  const handle = await openDb({ kind: 'postgres', url: url.toString() });
  const queueName = `bench-llm-${randomBytes(4).toString('hex')}`;
  const rollouts = new Rollouts({
    db: handle.db,
    dbKind: handle.kind,
    engine: defaultEngine(builtInBridges),
    events: new RunEvents(handle.db, REDIS_URL),
    concurrency: 2,
    maxConcurrency: 4096,
    redisUrl: REDIS_URL,
    queueName,
  });
  const inFlight = 256;
  const worker = startHarnessWorker(
    ['--concurrency', String(inFlight), '--rigs', '0', '--queue-name', queueName],
    { DATABASE_URL: url.toString(), REDIS_URL },
  );
  try {
    await worker.ready;
    const run = await household(20);
    await warmUp(rollouts, fake, run, 'bullmq');
    const p = await point(rollouts, fake, run, inFlight, 'bullmq', worker.child.pid);
    // The worker's episodes of the cancelled run end by themselves; the bench does not wait.
    worker.child.kill('SIGKILL');
    console.log(`  bullmq: ${describePoint(p)}`);
    return [
      measured({
        id: 'rollouts.llm_bound_bullmq_efficiency',
        name: `LLM-bound efficiency, 1 BullMQ worker, ${inFlight} in flight`,
        value: p.efficiency,
        unit: 'x',
        note: describePoint(p),
      }),
      measured({
        id: 'rollouts.llm_bound_bullmq_mb_per_episode',
        name: 'LLM-bound worker RSS growth per in-flight episode, BullMQ',
        value: p.rssMbPerEpisode,
        unit: 'MB',
        note: 'peak RSS of the harness worker process in the window minus before the run, ÷ in-flight',
      }),
    ];
  } finally {
    await new Promise<void>((resolve) => {
      if (worker.child.exitCode !== null) return resolve();
      worker.child.once('exit', () => resolve());
      worker.child.kill('SIGTERM');
    });
    await rollouts.close();
    await obliterateQueues(REDIS_URL, [queueName]);
    await rollouts.events.close();
    await handle.close();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

export async function benchLlmBound(): Promise<BenchRow[]> {
  const fake = await startFake();
  try {
    const only = process.env.LLM_BOUND_ONLY;
    return [
      ...(only === 'bullmq' ? [] : await embedded(fake)),
      ...(only === 'embedded' ? [] : await bullmq(fake)),
    ];
  } finally {
    fake.child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchLlmBound();
  for (const r of rows)
    console.log(
      `${r.name.padEnd(64)} ${r.value.toFixed(2).padStart(8)} ${r.unit.padEnd(9)} ${r.note ?? ''}`,
    );
  process.exit(0);
}
