// Hardening figures: live viewers on concurrent runs (events lost, p50/p95 commit-to-delivery
// latency), paging a 100,000-step trajectory (page latency, retained heap), and the hostile-hook
// corpus rate through the sandbox. Runnable alone: `npx tsx bench/hardening.ts`.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/db/index.ts';
import { generateCorpus } from '../server/hardening/hook-corpus.ts';
import { runHook } from '../server/hardening/hook-runner.ts';
import { liveViewersScenario, trajectoryPagingScenario } from '../server/hardening/load.ts';
import { SandboxHost } from '../server/harness/sandbox/index.ts';
import { counterEngine } from '../server/rollouts/testing.ts';
import { testServices } from '../server/testing/services.ts';
import type { BenchRow } from './row.ts';

export async function benchHardening(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const handle = await openDb({ kind: 'pglite', memory: true });
  const services = await testServices(handle, { engine: counterEngine({ delayMs: 2 }) });
  try {
    const v = await liveViewersScenario(services, { runs: 4, viewers: 50, episodes: 40 });
    const note = `${v.viewers} viewers on ${v.runs} concurrent runs, ${v.delivered} deliveries (subscribeRun)`;
    rows.push({
      name: 'live viewers: events lost',
      value: v.lost + v.duplicated + v.outOfOrder,
      unit: 'events',
      note,
    });
    rows.push({ name: 'live viewers: event latency p50', value: v.p50Ms, unit: 'ms', note });
    rows.push({ name: 'live viewers: event latency p95', value: v.p95Ms, unit: 'ms', note });

    const p = await trajectoryPagingScenario(services, { steps: 100_000, pageSize: 500 });
    const pnote = `${p.pages} pages of 500 through runs.steps, ${(p.bytesServed / 2 ** 20).toFixed(0)} MiB served`;
    rows.push({
      name: '100k-step trajectory: page latency p50',
      value: p.p50PageMs,
      unit: 'ms',
      note: pnote,
    });
    rows.push({
      name: '100k-step trajectory: page latency p95',
      value: p.p95PageMs,
      unit: 'ms',
      note: pnote,
    });
    rows.push({
      name: '100k-step trajectory: retained heap growth',
      value: p.maxHeapGrowthBytes / 2 ** 20,
      unit: 'MiB',
      note: 'after GC when run with --expose-gc',
    });
  } finally {
    await services.close();
    await handle.close();
  }

  const corpus = generateCorpus({
    seed: 1,
    size: 2000,
    canaryPath: path.join(tmpdir(), 'bench-hardening-canary'),
    builtins: 0,
  });
  const host = new SandboxHost({ hookTimeoutMs: 30 });
  let stopped = 0;
  const attacks = corpus.filter((h) => h.kind === 'attack');
  const t = performance.now();
  for (const h of corpus) {
    const o = await runHook(host, h);
    if (h.kind === 'attack' && o.status === 'harness-error') stopped += 1;
  }
  const ms = performance.now() - t;
  host.dispose();
  rows.push({
    name: 'hostile hook corpus: hooks per second',
    value: (corpus.length / ms) * 1000,
    unit: 'hooks/s',
    note: `${corpus.length} hooks, one thread`,
  });
  rows.push({
    name: 'hostile hook corpus: attacks stopped',
    value: (stopped / attacks.length) * 100,
    unit: '%',
    note: `${attacks.length} attacks`,
  });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchHardening())
    console.log(`${row.name}: ${row.value} ${row.unit}${row.note ? ` (${row.note})` : ''}`);
  process.exit(0);
}
