// `npm run bench`: every measured figure of the product in one run, so ratios compare like with like.
// Each part lives beside its subject (bench/<part>.ts) and returns rows; this file prints them.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BenchRow } from './row.ts';

type Part = { title: string; load: () => Promise<() => Promise<BenchRow[]>> };

const parts: Part[] = [
  { title: 'harness engine', load: async () => (await import('./engine.ts')).benchEngine },
  { title: 'rollouts', load: async () => (await import('./rollouts.ts')).benchRollouts },
  { title: 'bridges', load: async () => (await import('./bridges.ts')).benchBridges },
  { title: 'openenv', load: async () => (await import('./openenv.ts')).benchOpenEnv },
  { title: 'lint and audit', load: async () => (await import('./lint.ts')).benchLint },
  { title: 'llm', load: async () => (await import('./llm.ts')).benchLlm },
];

function format(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

const only = process.argv.slice(2);
const all: (BenchRow & { part: string })[] = [];
for (const part of parts) {
  if (only.length > 0 && !only.some((o) => part.title.includes(o))) continue;
  console.log(`\n## ${part.title}`);
  const run = await part.load();
  const rows = await run();
  for (const row of rows) {
    all.push({ ...row, part: part.title });
    console.log(
      `${row.name.padEnd(58)} ${format(row.value).padStart(10)} ${row.unit.padEnd(10)} ${row.note ?? ''}`,
    );
  }
}
mkdirSync('bench/out', { recursive: true });
writeFileSync('bench/out/latest.json', `${JSON.stringify(all, null, 2)}\n`);
console.log('\nwritten bench/out/latest.json');
process.exit(0);
