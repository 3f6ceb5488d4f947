// `npm run bench`: every measured figure of the product in one run, so ratios compare like with like.
// Each part lives beside its subject (bench/<part>.ts) and returns rows; this file prints them.
import { mkdirSync, writeFileSync } from 'node:fs';
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

const only = process.argv.slice(2);
const started = performance.now();
const all: (BenchRow & { id: string; load: number; part: string })[] = [];
for (const part of parts) {
  if (only.length > 0 && !only.some((o) => part.title.includes(o))) continue;
  console.log(`\n## ${part.title}`);
  const run = await part.load();
  const rows = await run();
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
