// OpenEnv both ways (rows `openenv.*`):
// 1. `harness serve` on a household task, played over /ws by a client in this process (the server
//    is the real CLI in its own process, sessions in its worker threads): round trip p50/p95 and
//    steps/s with 1 and 32 sessions, and the round trip's p50 over the engine's own step (the same
//    harness stepped in-process).
// 2. The `openenv` bridge on the Python OpenEnv fixture server: its step over the raw WebSocket round
//    trip of the same step message (the bridge also pipelines {"type":"state"} behind each step).
// `npx tsx bench/openenv.ts` runs it alone.
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import type { Action } from '../bridges/core/types.ts';
import { builtInBridges } from '../bridges/index.ts';
import { createOpenEnvBridge } from '../bridges/openenv/index.ts';
import { startOpenEnvFixture } from '../bridges/openenv/testing/fixture.ts';
import { createHarness } from '../server/harness/index.ts';
import type { BenchRow } from './row.ts';

type Row = BenchRow & { id: string };

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TASK = 'eval_seen-001';
const COMMANDS = [
  'look',
  'inventory',
  'go to countertop 1',
  'examine countertop 1',
  'go to fridge 1',
  'open fridge 1',
  'close fridge 1',
];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** A WebSocket whose replies are awaited in order. */
async function socket(url: string) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  (ws as unknown as { _socket?: { setNoDelay?: (b: boolean) => void } })._socket?.setNoDelay?.(
    true,
  );
  const waiting: ((s: string) => void)[] = [];
  ws.on('message', (d) => waiting.shift()?.(d.toString()));
  return {
    ask(msg: unknown): Promise<string> {
      return new Promise((resolve) => {
        waiting.push(resolve);
        ws.send(JSON.stringify(msg));
      });
    },
    close: () => ws.close(),
  };
}

async function startServe(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      'bin/harness.mjs',
      'serve',
      '--spec',
      `household:${TASK}`,
      '--port',
      '0',
      '--json',
      '--max-sessions',
      '64',
      '--max-steps',
      '100000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`harness serve exited ${code}`)));
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /"url": "([^"]+)"/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  return {
    url,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `sessions` clients step for `ms` (after a warm-up); every round trip is timed. */
async function servedSteps(url: string, sessions: number, ms: number) {
  const clients = await Promise.all(Array.from({ length: sessions }, () => socket(url)));
  await Promise.all(clients.map((c, i) => c.ask({ type: 'reset', data: { seed: i } })));
  const times: number[] = [];
  let stop = false;
  let warm = true;
  setTimeout(() => {
    warm = false;
  }, 500);
  let started = 0;
  const loops = clients.map(async (c, i) => {
    for (let n = i; !stop; n++) {
      const t = performance.now();
      await c.ask({ type: 'step', data: { message: COMMANDS[n % COMMANDS.length] } });
      if (!warm) {
        if (started === 0) started = t;
        times.push(performance.now() - t);
      }
    }
  });
  await new Promise((r) => setTimeout(r, 500 + ms));
  stop = true;
  await Promise.all(loops);
  const elapsed = performance.now() - started;
  for (const c of clients) c.close();
  times.sort((a, b) => a - b);
  return {
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    perSecond: (times.length / elapsed) * 1000,
  };
}

/** The engine's own step: the same harness and commands, in this process. */
async function engineStep(): Promise<number> {
  const spec = {
    version: 1 as const,
    env: { type: 'base' as const, bridge: 'household', task: TASK },
  };
  const h = await createHarness(spec, { bridges: builtInBridges });
  await h.reset({ seed: 0 });
  const times: number[] = [];
  for (let n = 0; n < 3000; n++) {
    const action: Action = { name: 'act', args: { command: COMMANDS[n % COMMANDS.length]! } };
    const t = performance.now();
    await h.step(action);
    if (n >= 300) times.push(performance.now() - t);
  }
  await h.close();
  times.sort((a, b) => a - b);
  return quantile(times, 0.5);
}

async function bridgeOverhead(): Promise<{ raw: number; rawWithState: number; bridge: number }> {
  const fixture = await startOpenEnvFixture();
  try {
    const n = 2000;
    const kwargs = { seed: 1, size: 12, max_steps: 1_000_000_000 };
    const moves = ['right', 'left'];
    // Raw: the step message alone, and with the state message pipelined behind it.
    const raw = await socket(fixture.url);
    await raw.ask({ type: 'reset', data: kwargs });
    const rawTimes: number[] = [];
    const pairTimes: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await raw.ask({ type: 'step', data: { message: moves[i % 2] } });
      rawTimes.push(performance.now() - t);
      const t2 = performance.now();
      await Promise.all([
        raw.ask({ type: 'step', data: { message: moves[(i + 1) % 2] } }),
        raw.ask({ type: 'state' }),
      ]);
      pairTimes.push(performance.now() - t2);
    }
    raw.close();
    const bridge = await createOpenEnvBridge({ name: 'grid', url: fixture.url });
    const env = await bridge.create();
    await env.reset({
      taskId: 'default',
      seed: 1,
      options: { size: 12, max_steps: 1_000_000_000 },
    });
    const bridgeTimes: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await env.step({ name: 'act', args: { message: moves[i % 2]! } });
      bridgeTimes.push(performance.now() - t);
    }
    await env.close();
    for (const a of [rawTimes, pairTimes, bridgeTimes]) a.sort((x, y) => x - y);
    return {
      raw: quantile(rawTimes.slice(200), 0.5),
      rawWithState: quantile(pairTimes.slice(200), 0.5),
      bridge: quantile(bridgeTimes.slice(200), 0.5),
    };
  } finally {
    await fixture.close();
  }
}

export async function benchOpenEnv(): Promise<BenchRow[]> {
  const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
  const rows: Row[] = [];
  const engine = await engineStep();
  const serve = await startServe();
  try {
    const one = await servedSteps(serve.url, 1, 3_000);
    const many = await servedSteps(serve.url, 32, 3_000);
    rows.push(
      {
        id: 'openenv.serve.engine_step_p50',
        name: 'household engine step (in-process), p50',
        value: engine * 1000,
        unit: 'µs',
        note: load(),
      },
      {
        id: 'openenv.serve.rtt_p50_1',
        name: 'served /ws round trip, 1 session, p50',
        value: one.p50 * 1000,
        unit: 'µs',
        note: load(),
      },
      {
        id: 'openenv.serve.rtt_p95_1',
        name: 'served /ws round trip, 1 session, p95',
        value: one.p95 * 1000,
        unit: 'µs',
      },
      {
        id: 'openenv.serve.steps_per_s_1',
        name: 'served steps/s, 1 session',
        value: one.perSecond,
        unit: 'steps/s',
      },
      {
        id: 'openenv.serve.added_p50',
        name: 'served round trip p50 over the engine step (goal ≤ 1000)',
        value: (one.p50 - engine) * 1000,
        unit: 'µs',
      },
      {
        id: 'openenv.serve.rtt_p50_32',
        name: 'served /ws round trip, 32 sessions, p50',
        value: many.p50 * 1000,
        unit: 'µs',
        note: load(),
      },
      {
        id: 'openenv.serve.rtt_p95_32',
        name: 'served /ws round trip, 32 sessions, p95',
        value: many.p95 * 1000,
        unit: 'µs',
      },
      {
        id: 'openenv.serve.steps_per_s_32',
        name: 'served steps/s, 32 sessions',
        value: many.perSecond,
        unit: 'steps/s',
      },
      {
        id: 'openenv.serve.scaling_32',
        name: '32 sessions / 1 session throughput (goal ≥ 8)',
        value: many.perSecond / one.perSecond,
        unit: 'x',
        note: `${os.availableParallelism()} cores`,
      },
    );
  } finally {
    await serve.stop();
  }
  const b = await bridgeOverhead();
  rows.push(
    {
      id: 'openenv.bridge.raw_rtt_p50',
      name: 'OpenEnv fixture: raw /ws step round trip, p50',
      value: b.raw * 1000,
      unit: 'µs',
      note: load(),
    },
    {
      id: 'openenv.bridge.raw_rtt_state_p50',
      name: 'OpenEnv fixture: raw step + state pipelined, p50',
      value: b.rawWithState * 1000,
      unit: 'µs',
    },
    {
      id: 'openenv.bridge.step_p50',
      name: 'openenv bridge step (step + state, parsed, rendered), p50',
      value: b.bridge * 1000,
      unit: 'µs',
    },
    {
      id: 'openenv.bridge.overhead_p50',
      name: 'openenv bridge over the raw step round trip (goal ≤ 200)',
      value: (b.bridge - b.raw) * 1000,
      unit: 'µs',
      note: `over step+state: ${((b.bridge - b.rawWithState) * 1000).toFixed(0)} µs`,
    },
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchOpenEnv())
    console.log(
      `${row.name.padEnd(62)} ${row.value.toFixed(1).padStart(10)} ${row.unit} ${row.note ?? ''}`,
    );
  process.exit(0);
}
