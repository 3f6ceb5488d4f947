// Rollout throughput: (1) household runs of 500 episodes with a scripted policy on the embedded
// stack (PGlite in a folder, IsolatedPool workers, trajectories persisted), their rate and CPU per
// episode over all threads (the median of three runs, main thread apart), and a harnessed
// (Stage + Contract) run against a raw one on the same task; (2) the same kind of run through
// BullMQ (scale-out.ts). Runnable alone: `npx tsx bench/rollouts.ts [embedded|bullmq]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtInBridges } from '../bridges/index.ts';
import { firstBase } from '../contracts/spec.ts';
import { config } from '../server/config.ts';
import { openDb } from '../server/db/index.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import {
  act,
  findMugScene,
  MUG_CONTRACT,
  mugSpec,
  potatoTaskId,
} from '../server/harness/testing/mug-example.ts';
import { defaultEngine } from '../server/rollouts/default-engine.ts';
import type { LaunchRunInput, Rollouts } from '../server/rollouts/service.ts';
import { testRollouts } from '../server/rollouts/testing.ts';
import { householdRun, POLICY, procCpuMs, timedRun } from './household-runs.ts';
import { type BenchRow, loadNow } from './row.ts';
import { scaleOut } from './scale-out.ts';

/**
 * Interleaved runs of several kinds, so that a change in the machine's load hits all of them, with
 * each kind's rate per round (compare kinds round by round: runs next to each other see the same
 * machine, and this one's speed drifts by tens of percent within a minute). An unmeasured round goes
 * first: the first run of hook code in a pool thread compiles QuickJS's wasm and the hooks (about
 * 50 ms a thread), which a served studio has long done.
 */
async function alternate(
  rollouts: Rollouts,
  inputs: LaunchRunInput[],
  rounds: number,
): Promise<{ rate: number; steps: number; n: number; perRound: number[] }[]> {
  const sums = inputs.map(() => ({ seconds: 0, n: 0, steps: 0, perRound: [] as number[] }));
  for (const input of inputs) await timedRun(rollouts, input);
  for (let r = 0; r < rounds; r++) {
    for (const [i, input] of inputs.entries()) {
      const { summary, seconds } = await timedRun(rollouts, input);
      const sum = sums[i] as (typeof sums)[number];
      sum.seconds += seconds;
      sum.n += summary.episodesDone;
      sum.steps += (summary.metrics.meanSteps ?? 0) * summary.episodesDone;
      sum.perRound.push(summary.episodesDone / seconds);
    }
  }
  return sums.map((x) => ({
    rate: x.n / x.seconds,
    steps: x.steps / x.n,
    n: x.n,
    perRound: x.perRound,
  }));
}

type Rates = { perRound: number[] };

/** One kind's rate over another's, round by round. */
function roundRatios(a: Rates, b: Rates): number[] {
  return a.perRound.map((x, i) => x / (b.perRound[i] ?? Number.NaN));
}

/** The middle value (the upper one of an even count) of `xs` ordered by `by`. */
function median<T>(xs: T[], by: (x: T) => number): T {
  return [...xs].sort((p, q) => by(p) - by(q))[Math.floor(xs.length / 2)] as T;
}

/** The median, over rounds, of one kind's rate over another's in the same round. */
function medianRatio(a: Rates, b: Rates): number {
  return median(roundRatios(a, b), (x) => x);
}

/**
 * Three stacks on the paper's household task and start state, alternated:
 * - raw: the base environment;
 * - overhead: a Stage (set-up actions that change nothing the agent must do) and a Contract of three
 *   code hooks (the paper example's action filter and transition hook, and an observation filter
 *   doing regex work without hiding anything), so the policy plays the same episodes as raw and the
 *   ratio is the harness's own cost;
 * - mug: the paper's Stage (hide the mug) + Contract (3 hooks, one keeps two sentences), a harder
 *   task by design: the policy plays about twice the steps, so its episodes/s ratio mostly
 *   measures the policy, and its steps/s ratio the harness.
 */
async function harnessedSpecs(): Promise<{
  raw: HarnessSpec;
  overhead: HarnessSpec;
  mug: HarnessSpec;
  seed: number;
}> {
  const scene = await findMugScene();
  const chain = mugSpec(scene, await potatoTaskId()).env;
  if (chain.type !== 'chain') throw new Error('unexpected mug spec');
  const base = { type: 'base' as const, bridge: 'household', task: scene.taskId };
  const [filters] = MUG_CONTRACT.split('export function filterObservation');
  return {
    raw: { version: 1, env: base },
    overhead: {
      version: 1,
      env: {
        type: 'contract',
        code: `${filters}export function filterObservation(observation) {
  return { ...observation, text: observation.text.replace(/ {2,}/g, ' ') };
}
`,
        env: { type: 'stage', actions: [act('look'), act('inventory')], env: base },
      },
    },
    mug: { version: 1, env: chain.first },
    seed: scene.seed,
  };
}

async function embedded(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-rollouts-'));
  const handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  const concurrency = config().ROLLOUT_CONCURRENCY;
  const rollouts = testRollouts(handle, defaultEngine(builtInBridges), { concurrency });
  try {
    const run = await householdRun(50, 10);
    // Warm up: worker threads start and load their modules once per process, and V8 compiles the
    // hot JavaScript (in each thread) on background threads over the first three thousand or so
    // episodes: after a handful the CPU per episode is about twice the steady one, and 500-episode
    // runs after 1,200 warm-up episodes still fell from 3.3 to 2.2 ms over the next 2,000 — all of
    // it V8's background threads (1.0 -> 0.3 ms; the main thread and the pool's threads were flat
    // at 1.5 and 0.8 ms). Those threads decay the same with a single-threaded GC and with PGlite's
    // WebAssembly compiled by TurboFan up front (2026-12-04); V8's trace shows functions called once
    // an episode (createHarness, reset, the policy's set-up) still reaching TurboFan there, once
    // in each thread. A served studio is warm, so the measured runs come after 3,200 episodes;
    // the warm-up's own figures go in the note.
    // One household run of k episodes per task, with its CPU: the whole process's, and the main
    // thread's (PGlite, the recorder, the queue); the rest is the pool's threads and V8's
    // background threads (compilers, GC).
    const measureRun = async (k: number, seed: number) => {
      const flushes = rollouts.localQueue().recorder.stats.flushes;
      const cpu0 = process.cpuUsage();
      const main0 = procCpuMs(process.pid, process.pid);
      const { runId, summary, seconds } = await timedRun(rollouts, {
        spec: run.spec,
        taskIds: run.taskIds,
        policy: POLICY,
        k,
        seed,
        queue: 'local',
        concurrency,
      });
      const cpu = process.cpuUsage(cpu0);
      const main1 = procCpuMs(process.pid, process.pid);
      return {
        runId,
        n: summary.episodesDone,
        seconds,
        cpuMs: (cpu.user + cpu.system) / 1000,
        mainMs: main0 !== undefined && main1 !== undefined ? main1 - main0 : undefined,
        flushes: rollouts.localQueue().recorder.stats.flushes - flushes,
        metrics: summary.metrics,
      };
    };
    const warm = await measureRun(6, 0);
    const warmer = await measureRun(18, 100);
    const settling = await measureRun(40, 200);
    // Five measured runs, reported by their median: one run of 500 episodes varies by 20% and
    // more from one run to the next on this shared 2-core machine (the machine's own speed drifts
    // by that much within a minute).
    const load = loadNow();
    const measured: Awaited<ReturnType<typeof measureRun>>[] = [];
    for (const seed of [1000, 2000, 3000, 4000, 5000]) measured.push(await measureRun(run.k, seed));
    const range = (f: (x: (typeof measured)[number]) => number, digits: number) =>
      `${Math.min(...measured.map(f)).toFixed(digits)}–${Math.max(...measured.map(f)).toFixed(digits)}`;
    const eps = (x: (typeof measured)[number]) => x.n / x.seconds;
    const cpuPer = (x: (typeof measured)[number]) => x.cpuMs / x.n;
    const byRate = median(measured, eps);
    const byCpu = median(measured, cpuPer);
    const steps = await handle.db.step.count({ where: { episode: { runId: byRate.runId } } });
    const n = byRate.n;
    const m = byRate.metrics;

    // Harnessed against raw on the mug task: one start state (a group of all K), alternated. Runs of
    // 150 episodes: each run also pays a launch and a completion (tens of ms), which at 30 episodes
    // hid a good part of the harness's cost (ratios 0.73 to 1.49 over five rounds; 0.72 to 0.82 at
    // 300 episodes).
    const specs = await harnessedSpecs();
    const k = 150;
    const same = { policy: POLICY, k, groupSize: k, seed: specs.seed, queue: 'local' as const };
    const harnessLoad = loadNow();
    const task = [firstBase(specs.raw.env).task];
    const [raw, harnessed, mug] = await alternate(
      rollouts,
      [
        { ...same, spec: specs.raw, taskIds: task },
        { ...same, spec: specs.overhead, taskIds: task },
        { ...same, spec: specs.mug, taskIds: task },
      ],
      5,
    );
    if (!raw || !harnessed || !mug) throw new Error('no harnessed comparison');
    return [
      {
        id: 'rollouts.embedded_eps',
        name: `household ${n} episodes, embedded (PGlite, pool ${concurrency}), median of 5 runs`,
        value: eps(byRate),
        unit: 'episodes/s',
        note: `target >= 300; runs ${range(eps, 0)}/s; the median run: ${byRate.seconds.toFixed(1)} s, ${steps} steps persisted, success ${((m.successRate ?? 0) * 100).toFixed(0)}%, mean steps ${m.meanSteps?.toFixed(1)}, ${byRate.flushes} write transactions`,
        load,
      },
      {
        // CPU time of the whole process: the main thread with PGlite (in-process WebAssembly
        // PostgreSQL), the pool's threads and V8's background threads. What the run costs however
        // busy the machine is, and the rate two idle cores would give.
        id: 'rollouts.embedded_cpu_ms_per_episode',
        name: 'embedded CPU time per episode (all threads, PGlite in-process), median of 5 runs',
        value: cpuPer(byCpu),
        unit: 'ms',
        note: `target <= 3; runs ${range(cpuPer, 2)} ms; the median run: ${
          byCpu.mainMs !== undefined
            ? `main thread (PGlite, recorder, queue) ${(byCpu.mainMs / byCpu.n).toFixed(2)} ms, other threads (pool, V8 compilers and GC) ${((byCpu.cpuMs - byCpu.mainMs) / byCpu.n).toFixed(2)} ms, `
            : ''
        }=> ${((2 * 1000 * byCpu.n) / byCpu.cpuMs).toFixed(0)} episodes/s on 2 idle cores; warm-up: the process's first ${warm.n} episodes (thread start included) ${cpuPer(warm).toFixed(1)} ms, the next ${warmer.n} ${cpuPer(warmer).toFixed(1)} ms, the next ${settling.n} ${cpuPer(settling).toFixed(1)} ms (before 2026-12-04 the measured runs came right after the first ${warm.n + warmer.n})`,
        load,
      },
      {
        id: 'rollouts.harnessed_over_raw',
        name: 'harnessed (Stage + Contract, 3 code hooks) / raw household episodes/s',
        value: medianRatio(harnessed, raw),
        unit: 'x',
        note: `target >= 0.6; the median of ${harnessed.perRound.length} rounds' ratios (${roundRatios(
          harnessed,
          raw,
        )
          .map((x) => x.toFixed(2))
          .join(
            ', ',
          )}); ${harnessed.n} + ${raw.n} episodes alternated on one task and start state; a Stage and 3 hooks that leave the agent the same task, so both play the same episodes (mean steps ${harnessed.steps.toFixed(1)} harnessed, ${raw.steps.toFixed(1)} raw): harnessed ${harnessed.rate.toFixed(0)}/s, raw ${raw.rate.toFixed(0)}/s`,
        load: harnessLoad,
      },
      {
        id: 'rollouts.harnessed_mug_over_raw',
        name: "the paper's Stage + Contract (mug hidden, two sentences) / raw household episodes/s",
        value: medianRatio(mug, raw),
        unit: 'x',
        note: `a harder task by design: ${mug.steps.toFixed(1)} steps against ${raw.steps.toFixed(1)} raw, ${mug.rate.toFixed(0)}/s against ${raw.rate.toFixed(0)}/s; steps/s ratio ${((mug.rate * mug.steps) / (raw.rate * raw.steps)).toFixed(2)} (the harness's cost per step)`,
        load: harnessLoad,
      },
    ];
  } finally {
    await rollouts.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
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
