// CLI start-up (issue 18, part 1): wall time of `harness` child processes against `node -e 0` in
// the same run — help ≤ 4×, `tasks household --json` ≤ 6×, a 1-episode household rollout ≤ 1.0 s on
// an existing data folder and ≤ 2.5 s on a fresh one (create + migrate). Medians of a few runs;
// the rollouts' peak RSS as extra rows. The bundle is built first (scripts/build-cli.mjs), so this
// measures what `npm ci` gives. `npx tsx bench/run.ts cli` runs it alone.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './row.ts';
import { measured } from './row.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/harness.mjs');
const ROLLOUT = [
  'rollout',
  '--spec',
  'household:train-0001',
  '--policy',
  'scripted:household-explorer',
  '-k',
  '1',
];

/**
 * Every child (the baseline too) reports its peak RSS and CPU time on exit through this preload:
 * Node gives no rusage of children. It costs the same ~1 ms to every measured process. The CPU
 * time (all threads) goes in the notes: on a machine shared with other work, wall time follows
 * the load, CPU time much less.
 */
const USAGE_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { const u = process.resourceUsage(); if (process.env.BENCH_USAGE_FILE) writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify(u)); });",
)}`;

interface Sample {
  ms: number;
  cpuMs: number;
  rssMb: number;
}

function child(args: string[], env: Record<string, string> = {}): Promise<Sample> {
  const usageFile = path.join(os.tmpdir(), `bench-cli-usage-${process.pid}-${Math.random()}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(process.execPath, ['--import', USAGE_PRELOAD, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, BENCH_USAGE_FILE: usageFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    p.on('error', reject);
    p.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim().slice(-400)}`));
        return;
      }
      const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage;
      rmSync(usageFile, { force: true });
      const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
      resolve({ ms, cpuMs, rssMb: usage.maxRSS / 1024 });
    });
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN;
}

async function repeat(n: number, run: (i: number) => Promise<Sample>): Promise<Sample> {
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(await run(i));
  return {
    ms: median(samples.map((s) => s.ms)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    rssMb: median(samples.map((s) => s.rssMb)),
  };
}

export async function benchCli(): Promise<BenchRow[]> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  // A temp folder of its own: the embedded database's migrated template (server/db/pglite.ts) is
  // cached there, so the first fresh rollout below is a first run on a new machine.
  const env = { TMPDIR: scratch, DATA_DIR: path.join(scratch, 'data') };
  const harness = (...args: string[]) => child([BIN, ...args], env);
  try {
    const rows: BenchRow[] = [];
    // One unmeasured run of each, so every measured one finds the files in the page cache.
    await child(['-e', '0']);
    await harness('help');
    await harness('tasks', 'household', '--json');

    const baseline = await repeat(5, () => child(['-e', '0']));
    rows.push(
      measured({
        id: 'cli.node_baseline_ms',
        name: 'node -e 0',
        value: baseline.ms,
        unit: 'ms',
        note: `cpu ${baseline.cpuMs.toFixed(0)} ms`,
      }),
    );
    const ratio = (s: Sample, goal: number) =>
      `${(s.ms / baseline.ms).toFixed(1)}× node (goal ≤ ${goal}×); cpu ${s.cpuMs.toFixed(0)} ms`;
    const help = await repeat(5, () => harness('help'));
    rows.push(
      measured({
        id: 'cli.help_ms',
        name: 'harness help',
        value: help.ms,
        unit: 'ms',
        note: ratio(help, 4),
      }),
    );
    const tasks = await repeat(5, () => harness('tasks', 'household', '--json'));
    rows.push(
      measured({
        id: 'cli.tasks_ms',
        name: 'harness tasks household --json',
        value: tasks.ms,
        unit: 'ms',
        note: ratio(tasks, 6),
      }),
    );

    const fresh = (i: number) =>
      child([BIN, ...ROLLOUT], { ...env, DATA_DIR: path.join(scratch, `fresh-${i}`) });
    const first = await fresh(0);
    rows.push(
      measured({
        id: 'cli.rollout1_first_ms',
        name: '1-episode rollout, fresh folder, no cached template',
        value: first.ms,
        unit: 'ms',
        note: `initdb + migrations; cpu ${first.cpuMs.toFixed(0)} ms; ${first.rssMb.toFixed(0)} MB peak RSS`,
      }),
    );
    const freshRuns = await repeat(3, (i) => fresh(i + 1));
    rows.push(
      measured({
        id: 'cli.rollout1_fresh_ms',
        name: '1-episode household rollout, fresh folder',
        value: freshRuns.ms,
        unit: 'ms',
        note: `create + migrate (from the cached template); goal ≤ 2500 ms; cpu ${freshRuns.cpuMs.toFixed(0)} ms`,
      }),
      measured({
        id: 'cli.rollout1_fresh_rss_mb',
        name: '1-episode rollout, fresh folder: peak RSS',
        value: freshRuns.rssMb,
        unit: 'MB',
      }),
    );
    // The warm runs reuse a folder a fresh run above created.
    const warm = await repeat(3, () =>
      child([BIN, ...ROLLOUT], { ...env, DATA_DIR: path.join(scratch, 'fresh-1') }),
    );
    rows.push(
      measured({
        id: 'cli.rollout1_warm_ms',
        name: '1-episode household rollout, existing folder',
        value: warm.ms,
        unit: 'ms',
        note: `goal ≤ 1000 ms; cpu ${warm.cpuMs.toFixed(0)} ms`,
      }),
      measured({
        id: 'cli.rollout1_warm_rss_mb',
        name: '1-episode rollout, existing folder: peak RSS',
        value: warm.rssMb,
        unit: 'MB',
      }),
    );
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
