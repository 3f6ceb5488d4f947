// `npm run bench`: every measured figure of the product in one run, so ratios compare like with like.
// Each part lives beside its subject (bench/<part>.ts) and returns rows; this file prints them.
// Each part runs in a process of its own (this file again, with BENCH_PART set): a part that
// measures its process's CPU (llm-bound, rollouts) must not count what earlier parts left behind
// — their heap, threads and timers (llm-bound's efficiency at 256: 0.86 after the other parts in
// one process, 0.95 alone, same minutes).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BenchRow, loadNow } from './row.ts';

type Part = { title: string; load: () => Promise<() => Promise<BenchRow[]>> };

const parts: Part[] = [
  { title: 'harness engine', load: async () => (await import('./engine.ts')).benchEngine },
  { title: 'rollouts', load: async () => (await import('./rollouts.ts')).benchRollouts },
  { title: 'bridges', load: async () => (await import('./bridges.ts')).benchBridges },
  { title: 'openenv', load: async () => (await import('./openenv.ts')).benchOpenEnv },
  { title: 'lint and audit', load: async () => (await import('./lint.ts')).benchLint },
  { title: 'llm', load: async () => (await import('./llm.ts')).benchLlm },
  { title: 'cli', load: async () => (await import('./cli.ts')).benchCli },
  { title: 'llm-bound', load: async () => (await import('./llm-bound.ts')).benchLlmBound },
  { title: 'live', load: async () => (await import('./live.ts')).benchLive },
];

/** Ids other tools read from bench/out/latest.json: every full run must produce each of them. */
const CONTRACT_IDS = [
  'engine.hooks3.added_cpu_us',
  'engine.identity3.added_cpu_us',
  'engine.rules3.added_cpu_us',
  'cli.node_baseline_ms',
  'cli.help_ms',
  'cli.tasks_ms',
  'cli.rollout1_warm_ms',
  'cli.rollout1_fresh_ms',
  'rollouts.embedded_eps',
  'rollouts.embedded_cpu_ms_per_episode',
  'rollouts.harnessed_over_raw',
  'rollouts.llm_bound_in_flight',
  'rollouts.llm_bound_efficiency',
  'rollouts.llm_bound_mb_per_episode',
  'live.sse_p95_ms',
  'bullmq.worker_cpu_ms_per_episode',
  'bullmq.postgres_cpu_ms_per_episode',
];

function format(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

/** `<part>.<name>` as a lower-case dotted slug, for rows that carry no id of their own. */
function slug(part: string, name: string): string {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
  return `${words(part)}.${words(name)}`;
}

/** In a part's own process: runs it and writes its rows (load stamped) to BENCH_ROWS. */
async function runPart(title: string, out: string): Promise<never> {
  const part = parts.find((p) => p.title === title);
  if (!part) throw new Error(`no bench part ${title}`);
  const rows = await (await part.load())();
  const load = loadNow();
  writeFileSync(out, JSON.stringify(rows.map((r) => ({ ...r, load: r.load ?? load }))));
  process.exit(0);
}

/** Runs one part in a child process (its output shown as it comes) and returns its rows. */
async function partRows(title: string): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-part-'));
  const out = path.join(dir, 'rows.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? ''], {
        stdio: 'inherit',
        env: { ...process.env, BENCH_PART: title, BENCH_ROWS: out },
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`bench part "${title}" exited with ${code}`);
    // JSON has no NaN (a figure a part could not measure): it comes back as null.
    const rows = JSON.parse(readFileSync(out, 'utf8')) as BenchRow[];
    return rows.map((r) => ({ ...r, value: r.value ?? Number.NaN }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_PART) await runPart(process.env.BENCH_PART, process.env.BENCH_ROWS ?? '');

const only = process.argv.slice(2);
const started = performance.now();
const all: (BenchRow & { id: string; load: number; part: string })[] = [];
for (const part of parts) {
  if (only.length > 0 && !only.some((o) => part.title.includes(o))) continue;
  console.log(`\n## ${part.title}`);
  const rows = await partRows(part.title);
  const load = loadNow();
  for (const row of rows) {
    const full = {
      ...row,
      id: row.id ?? slug(part.title, row.name),
      load: row.load ?? load,
      part: part.title,
    };
    all.push(full);
    console.log(
      `${row.name.padEnd(58)} ${format(row.value).padStart(10)} ${row.unit.padEnd(10)} load ${full.load.toFixed(2).padEnd(5)} ${row.note ?? ''}`,
    );
  }
}
console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
mkdirSync('bench/out', { recursive: true });
writeFileSync('bench/out/latest.json', `${JSON.stringify(all, null, 2)}\n`);
console.log('written bench/out/latest.json');

const problems: string[] = [];
const seen = new Set<string>();
for (const row of all) {
  if (seen.has(row.id)) problems.push(`two rows share the id ${row.id}`);
  seen.add(row.id);
}
if (only.length === 0) {
  for (const id of CONTRACT_IDS) if (!seen.has(id)) problems.push(`no row has the id ${id}`);
}
for (const problem of problems) console.error(`bench: ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
