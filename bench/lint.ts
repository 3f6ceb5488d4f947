// Solvability lint and the verifier audit (issue 15's goals): lint of a household harness — the
// oracle re-planned through a Stage plus replays of recorded wins — at p95 ≤ 50 ms, and
// `audit household --split eval_seen` (140 tasks, probes stored) ≤ 10 s. `npx tsx bench/lint.ts`
// runs it alone. Rows carry ids under `lint.*` / `audit.*`.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { resolverOf } from '../bridges/core/capabilities.ts';
import type { Action } from '../bridges/core/types.ts';
import { householdBridge } from '../bridges/household/index.ts';
import { playAudit } from '../server/audit/audit.ts';
import { runAudit } from '../server/audit/service.ts';
import { openDb } from '../server/db/index.ts';
import type { HarnessSpec } from '../server/harness/index.ts';
import { findMugScene } from '../server/harness/testing/mug-example.ts';
import { type KnownSequence, lintSpec } from '../server/lint/lint.ts';
import { budgetContract } from '../server/rigger/designers/heuristic/common.ts';
import type { BenchRow } from './row.ts';

type Row = BenchRow & { id: string };

const BLOCK_TAKE = `export function filterAction(action) {
  if (/^take /.test(String(action.args.command ?? ''))) return { blocked: 'Nothing happens.' };
  return action;
}`;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? Number.NaN;
}

async function timeLint(
  spec: HarnessSpec,
  o: { seed: number; recorded: KnownSequence[] },
  runs: number,
): Promise<{ p50: number; p95: number; solvable: string }> {
  const bridges = resolverOf([householdBridge]);
  let solvable = '';
  for (let i = 0; i < 5; i++) solvable = (await lintSpec(spec, { bridges, ...o })).solvable;
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await lintSpec(spec, { bridges, ...o });
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), solvable };
}

export async function benchLint(): Promise<BenchRow[]> {
  const rows: Row[] = [];
  const load = () => `load ${os.loadavg()[0]?.toFixed(1)}`;
  // The audit: 140 eval_seen tasks, probes played and stored (embedded database), end to end.
  const bridges = resolverOf([householdBridge]);
  const tasks = await householdBridge.listTasks({ split: 'eval_seen' });
  const spec: HarnessSpec = {
    version: 1,
    env: { type: 'base', bridge: 'household', task: tasks[0]?.id ?? '' },
  };
  await playAudit({ spec, tasks: tasks.slice(0, 5), seed: 0, recorded: {} }, bridges);
  const handle = await openDb({ kind: 'pglite', memory: true });
  try {
    const t1 = performance.now();
    const report = await runAudit(
      { db: handle.db, bridges, play: (input) => playAudit(input, bridges) },
      { bridge: 'household', split: 'eval_seen' },
    );
    const total = performance.now() - t1;
    const t0 = performance.now();
    const played = await playAudit({ spec, tasks, seed: 0, recorded: {} }, bridges);
    const playMs = performance.now() - t0;
    rows.push(
      {
        id: 'audit.household.eval_seen.total',
        name: `audit household eval_seen (${report.totals.tasks} tasks, probes stored)`,
        value: Math.round(total / 100) / 10,
        unit: 's',
        note: `${report.passed ? 'passed' : 'FAILED'}; ${report.totals.suspicious} suspicious; goal <= 10 s; ${load()}`,
      },
      {
        id: 'audit.household.eval_seen.play',
        name: 'audit household eval_seen: probes played (gold, empty, perturbed)',
        value: Math.round(playMs / 100) / 10,
        unit: 's',
        note: `${played.episodes.length} episodes, ${played.episodes.reduce((n, e) => n + e.trajectory.length, 0)} steps; ${load()}`,
      },
    );
  } finally {
    await handle.close();
  }
  const scene = await findMugScene();
  const base = { type: 'base' as const, bridge: 'household', task: scene.taskId };
  // What an agent did on the unstaged scene: the oracle's plan from the reset (a recorded win).
  const env = await householdBridge.create();
  await env.reset({ taskId: scene.taskId, seed: scene.seed });
  const win: Action[] = (await env.solve?.()) ?? [];
  await env.close();
  const recorded = [
    { episodeId: 'recorded-1', seed: scene.seed, actions: win },
    {
      episodeId: 'recorded-2',
      seed: scene.seed,
      actions: [{ name: 'act', args: { command: 'look' } }, ...win],
    },
  ];

  // Proved: the mug hidden in a closed cabinet (Stage) under a step budget (Contract); the oracle
  // re-plans from the staged state and opens the cabinet.
  const staged: HarnessSpec = {
    version: 1,
    env: {
      type: 'contract',
      code: budgetContract(40),
      env: { type: 'stage', actions: scene.setup, env: base },
    },
  };
  const proved = await timeLint(staged, { seed: scene.seed, recorded }, 100);
  // Refuted: `take` blocked; the oracle and both recorded wins are replayed and each break explained.
  const blocked: HarnessSpec = {
    version: 1,
    env: { type: 'contract', code: BLOCK_TAKE, env: base },
  };
  const refuted = await timeLint(blocked, { seed: scene.seed, recorded }, 100);
  rows.push(
    {
      id: 'lint.household.proved.p95',
      name: 'lint: household Stage+Contract, proved by oracle re-plan (p95)',
      value: Math.round(proved.p95 * 10) / 10,
      unit: 'ms',
      note: `p50 ${proved.p50.toFixed(1)} ms; ${proved.solvable}; goal <= 50 ms; ${load()}`,
    },
    {
      id: 'lint.household.refuted.p95',
      name: 'lint: household Contract blocking take, oracle + 2 recorded replays (p95)',
      value: Math.round(refuted.p95 * 10) / 10,
      unit: 'ms',
      note: `p50 ${refuted.p50.toFixed(1)} ms; ${refuted.solvable}; goal <= 50 ms; ${load()}`,
    },
  );

  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchLint())
    console.log(`${r.name.padEnd(72)} ${r.value} ${r.unit}  ${r.note ?? ''}`);
  process.exit(0);
}
