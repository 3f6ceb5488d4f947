// Harness engine costs: per-step cost of raw household vs the paper's composition
// Stage + Contract (3 sandboxed hooks) + Chain on household, measured in one run on the same
// transitions, and the per-episode sandbox set-up cost. `npx tsx bench/engine.ts` runs it alone.
import { pathToFileURL } from 'node:url';
import type { Action } from '../bridges/core/types.ts';
import {
  type HouseholdStateView,
  householdBridge,
  oraclePlan,
} from '../bridges/household/index.ts';
import { createHarness, type Harness } from '../server/harness/index.ts';
import { HOOK_NAMES, SandboxHost } from '../server/harness/sandbox.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import {
  act,
  findMugScene,
  MUG_CONTRACT,
  type MugScene,
  mugSpec,
  potatoTaskId,
} from '../server/harness/testing/mug-example.ts';
import type { BenchRow } from './run.ts';

const ROUNDS = 5;
const EPISODES_PER_ROUND = 40;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The agent's commands: look around a little, then the oracle's plan from the post-set-up state. */
async function agentCommands(scene: MugScene): Promise<Action[]> {
  const env = await householdBridge.create();
  await env.reset({ taskId: scene.taskId, seed: scene.seed });
  for (const a of scene.setup) await env.step(a);
  const plan = oraclePlan(env.getEnvState() as unknown as HouseholdStateView);
  await env.close();
  const warmup = ['look', 'inventory', `examine ${scene.hideIn}`, 'go to sinkbasin 1', 'look'];
  return [...warmup, ...plan].map(act);
}

async function rawRound(
  scene: MugScene,
  commands: Action[],
): Promise<{ stepUs: number; resetMs: number }> {
  const env = await householdBridge.create();
  let stepNs = 0;
  let steps = 0;
  let resetMs = 0;
  for (let e = 0; e < EPISODES_PER_ROUND; e++) {
    const t0 = performance.now();
    await env.reset({ taskId: scene.taskId, seed: scene.seed });
    for (const a of scene.setup) await env.step(a);
    resetMs += performance.now() - t0;
    for (const a of commands) {
      const t = process.hrtime.bigint();
      await env.step(a);
      stepNs += Number(process.hrtime.bigint() - t);
      steps++;
    }
  }
  await env.close();
  return { stepUs: stepNs / steps / 1000, resetMs: resetMs / EPISODES_PER_ROUND };
}

async function harnessRound(
  harness: Harness,
  scene: MugScene,
  commands: Action[],
): Promise<{ stepUs: number; resetMs: number }> {
  let stepNs = 0;
  let steps = 0;
  let resetMs = 0;
  for (let e = 0; e < EPISODES_PER_ROUND; e++) {
    const t0 = performance.now();
    await harness.reset({ seed: scene.seed });
    resetMs += performance.now() - t0;
    for (const a of commands) {
      const t = process.hrtime.bigint();
      await harness.step(a);
      stepNs += Number(process.hrtime.bigint() - t);
      steps++;
    }
  }
  return { stepUs: stepNs / steps / 1000, resetMs: resetMs / EPISODES_PER_ROUND };
}

function withoutContract(spec: HarnessSpec): HarnessSpec {
  const env = spec.env;
  if (env.type !== 'chain' || env.first.type !== 'contract') throw new Error('unexpected spec');
  return { version: 1, env: { ...env, first: env.first.env } };
}

async function sandboxCosts(): Promise<{ loadMs: number; identityCallUs: number; hostMs: number }> {
  let t = performance.now();
  const host = new SandboxHost();
  await host.ready();
  const hostMs = performance.now() - t;
  for (let i = 0; i < 20; i++) host.load(MUG_CONTRACT, { names: HOOK_NAMES }).dispose();
  const n = 200;
  t = performance.now();
  for (let i = 0; i < n; i++) host.load(MUG_CONTRACT, { names: HOOK_NAMES, seed: i }).dispose();
  const loadMs = (performance.now() - t) / n;
  const set = host.load('function filterAction(action) { return action; }', { names: HOOK_NAMES });
  const action = act('look') as unknown as import('../bridges/core/types.ts').Json;
  for (let i = 0; i < 500; i++) set.call('filterAction', [action]);
  const calls = 5000;
  t = performance.now();
  for (let i = 0; i < calls; i++) set.call('filterAction', [action]);
  const identityCallUs = ((performance.now() - t) * 1000) / calls;
  set.dispose();
  host.dispose();
  return { loadMs, identityCallUs, hostMs };
}

export async function benchEngine(): Promise<BenchRow[]> {
  const scene = await findMugScene();
  const potato = await potatoTaskId();
  const commands = await agentCommands(scene);
  const full = await createHarness(mugSpec(scene, potato));
  const bare = await createHarness(withoutContract(mugSpec(scene, potato)));
  // Warm up JIT and caches on every path before measuring.
  await rawRound(scene, commands);
  await harnessRound(full, scene, commands);
  await harnessRound(bare, scene, commands);
  const raw: number[] = [];
  const rawReset: number[] = [];
  const harnessed: number[] = [];
  const harnessedReset: number[] = [];
  const noHooks: number[] = [];
  const noHooksReset: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = await rawRound(scene, commands);
    const b = await harnessRound(full, scene, commands);
    const c = await harnessRound(bare, scene, commands);
    raw.push(a.stepUs);
    rawReset.push(a.resetMs);
    harnessed.push(b.stepUs);
    harnessedReset.push(b.resetMs);
    noHooks.push(c.stepUs);
    noHooksReset.push(c.resetMs);
  }
  await full.close();
  await bare.close();
  const sandbox = await sandboxCosts();
  const rawUs = median(raw);
  const fullUs = median(harnessed);
  const bareUs = median(noHooks);
  const hooksUs = fullUs - bareUs;
  const setupMs = median(harnessedReset) - median(noHooksReset);
  const steps = commands.length;
  const where = `household ${scene.taskId} seed ${scene.seed}, ${steps} agent steps x ${EPISODES_PER_ROUND} episodes x ${ROUNDS} rounds (median)`;
  return [
    { name: 'household raw step', value: rawUs, unit: 'µs/step', note: where },
    {
      name: 'household Stage+Contract(3 hooks)+Chain step',
      value: fullUs,
      unit: 'µs/step',
      note: 'chain(contract(stage(household)), household)',
    },
    { name: 'harnessed / raw step cost', value: fullUs / rawUs, unit: 'x' },
    {
      name: 'household Stage+Chain step (no contract)',
      value: bareUs,
      unit: 'µs/step',
      note: 'same stack without the contract',
    },
    {
      name: 'added by the 3 sandboxed hooks',
      value: hooksUs,
      unit: 'µs/step',
      note: `target <= 60 µs: ${hooksUs <= 60 ? 'met' : 'MISSED'}`,
    },
    {
      name: 'sandbox boundary crossing (identity hook)',
      value: sandbox.identityCallUs,
      unit: 'µs/call',
      note: 'JSON action in and out',
    },
    {
      name: 'sandbox set-up per episode (runtime + 3-hook code)',
      value: sandbox.loadMs,
      unit: 'ms',
      note: `target <= 5 ms: ${sandbox.loadMs <= 5 ? 'met' : 'MISSED'}`,
    },
    {
      name: 'harnessed reset minus no-contract reset',
      value: setupMs,
      unit: 'ms/episode',
      note: 'contract reset incl. filterObservation on the first observation',
    },
    {
      name: 'raw reset + 6 set-up steps',
      value: median(rawReset),
      unit: 'ms/episode',
    },
    {
      name: 'harnessed reset (Stage replay + sandbox + both legs)',
      value: median(harnessedReset),
      unit: 'ms/episode',
    },
    {
      name: 'sandbox wasm instance (once per harness, 64 MiB cap)',
      value: sandbox.hostMs,
      unit: 'ms',
      note: 'reused across episodes; rebuilt only after a fatal hook error',
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchEngine();
  for (const row of rows) {
    const v = Number.isInteger(row.value) ? String(row.value) : row.value.toPrecision(3);
    console.log(`${row.name.padEnd(56)} ${v.padStart(9)} ${row.unit.padEnd(11)} ${row.note ?? ''}`);
  }
}
