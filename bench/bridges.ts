// Per-step cost of every bridge, raw and harnessed (Stage + Contract with two light hooks), on the
// same transitions: the agent's actions are a real episode of the bridge's scripted policy (fixed
// read/search calls for code-repair, whose test runs would swamp the step cost), replayed on the
// raw environment and on the harness. `npx tsx bench/bridges.ts [bridge…]` runs it alone.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Action, ActionableEnv } from '../bridges/core/types.ts';
import { getBridge } from '../bridges/index.ts';
import { bridgesFromConfig } from '../server/bridges.ts';
import { config } from '../server/config.ts';
import { createHarness, type Harness } from '../server/harness/index.ts';
import type { HarnessSpec } from '../server/harness/spec.ts';
import { getPolicy } from '../server/policies/index.ts';
import type { BenchRow } from './row.ts';

/** Two light hooks: a guard on one tool name and a length cap on observations (never hit here). */
const LIGHT_HOOKS = `export function filterAction(action) {
  return action.name === 'rm_rf' ? { blocked: 'not in this harness' } : action;
}
export function filterObservation(o) {
  return o.text.length > 100000 ? { ...o, text: o.text.slice(0, 100000) } : o;
}`;

interface Case {
  bridge: string;
  task: string;
  /** Stage set-up: read-only actions where the bridge has one, so the agent's episode is unchanged. */
  stage: Action[];
  /** The scripted policy whose episode is replayed, or fixed agent actions. */
  agent: { policy: string; maxSteps: number } | { actions: Action[] };
  episodes: number;
  rounds: number;
}

const CASES: Case[] = [
  {
    bridge: 'household',
    task: 'eval_seen-001',
    stage: [{ name: 'act', args: { command: 'look' } }],
    agent: { policy: 'scripted:household-explorer', maxSteps: 40 },
    episodes: 20,
    rounds: 5,
  },
  {
    bridge: 'toy24',
    task: '4-7-8-8',
    stage: [],
    agent: { policy: 'scripted:toy24-exact', maxSteps: 10 },
    episodes: 200,
    rounds: 5,
  },
  {
    bridge: 'code-repair',
    task: 'interval__flip-comparison-L6',
    stage: [{ name: 'list_files', args: { path: '.' } }],
    agent: {
      actions: [
        { name: 'list_files', args: { path: 'src' } },
        { name: 'read_file', args: { path: 'src/index.js' } },
        { name: 'search', args: { pattern: 'typeof', path: 'src' } },
        { name: 'read_file', args: { path: 'src/index.js', start: 1, end: 20 } },
        { name: 'search', args: { pattern: 'makeInterval' } },
        { name: 'read_file', args: { path: 'package.json' } },
      ],
    },
    episodes: 6,
    rounds: 3,
  },
  {
    bridge: 'spreadsheet',
    task: 'row-sum-00',
    stage: [{ name: 'list_sheets', args: {} }],
    agent: { policy: 'scripted:spreadsheet-formulas', maxSteps: 30 },
    episodes: 20,
    rounds: 5,
  },
  {
    bridge: 'webarena',
    task: 'forum-post-author-01',
    stage: [],
    agent: { policy: 'scripted:webarena-careful', maxSteps: 12 },
    episodes: 1,
    rounds: 3,
  },
  {
    bridge: 'officeqa',
    task: 'oq-growth-01',
    stage: [{ name: 'list_documents', args: {} }],
    agent: { policy: 'scripted:officeqa-careful', maxSteps: 20 },
    episodes: 20,
    rounds: 5,
  },
  {
    bridge: 'remote',
    task: '4-7-8-8',
    stage: [],
    agent: { policy: 'scripted:remote-exact', maxSteps: 10 },
    episodes: 25,
    rounds: 3,
  },
  {
    bridge: 'webshop',
    task: 'ws-0000',
    stage: [],
    agent: { policy: 'scripted:webshop-careful', maxSteps: 12 },
    episodes: 1,
    rounds: 3,
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function harnessSpec(c: Case): HarnessSpec {
  return {
    version: 1,
    env: {
      type: 'contract',
      code: LIGHT_HOOKS,
      env: {
        type: 'stage',
        actions: c.stage,
        env: { type: 'base', bridge: c.bridge, task: c.task },
      },
    },
  };
}

/** One episode of the scripted policy on the harness: the actions every round replays. */
async function agentActions(c: Case, harness: Harness): Promise<Action[]> {
  if ('actions' in c.agent) return c.agent.actions;
  const seed = 0;
  const reset = await harness.reset({ seed });
  const tt = harness.textTool();
  const session = await getPolicy(c.agent.policy).start({
    bridge: c.bridge,
    task: harness.task(),
    tools: harness.tools(),
    ...(tt ? { textTool: tt } : {}),
    seed,
    maxSteps: c.agent.maxSteps,
  });
  const actions: Action[] = [];
  let observation = reset.observation;
  let info = reset.info;
  while (actions.length < c.agent.maxSteps) {
    const decision = await session.act(observation, info);
    if (decision.kind !== 'act') break;
    actions.push(decision.action);
    const r = await harness.step(decision.action);
    if (r.terminated || r.truncated) break;
    observation = r.observation;
    info = r.info;
  }
  await session.close?.();
  return actions;
}

interface Round {
  stepUs: number;
  stepCpuUs: number;
}

/** Accumulates one side's step times over a round. */
class Side {
  private ns = 0;
  private cpu = 0;
  private steps = 0;
  constructor(
    private readonly reset: () => Promise<void>,
    private readonly step: (a: Action) => Promise<unknown>,
  ) {}
  async episode(actions: Action[]): Promise<void> {
    await this.reset();
    const c = process.cpuUsage();
    for (const a of actions) {
      const t = process.hrtime.bigint();
      await this.step(a);
      this.ns += Number(process.hrtime.bigint() - t);
      this.steps++;
    }
    const d = process.cpuUsage(c);
    this.cpu += d.user + d.system;
  }
  take(): Round {
    const r = { stepUs: this.ns / this.steps / 1000, stepCpuUs: this.cpu / this.steps };
    this.ns = 0;
    this.cpu = 0;
    this.steps = 0;
    return r;
  }
}

async function benchCase(c: Case): Promise<BenchRow[]> {
  const bridge = await getBridge(c.bridge);
  if (!bridge) throw new Error(`bridge '${c.bridge}' is not registered`);
  const harness = await createHarness(harnessSpec(c), { bridges: bridgesFromConfig(config()) });
  const raw: ActionableEnv = await bridge.create();
  try {
    const actions = await agentActions(c, harness);
    if (actions.length === 0) throw new Error(`${c.bridge}: the agent took no action`);
    const rawSide = new Side(
      async () => {
        await raw.reset({ taskId: c.task, seed: 0 });
        for (const a of c.stage) await raw.step(a);
      },
      (a) => raw.step(a),
    );
    const harnessSide = new Side(
      async () => {
        await harness.reset({ seed: 0 });
      },
      (a) => harness.step(a),
    );
    const round = async (): Promise<[Round, Round]> => {
      // Episodes alternate between the sides so a burst of load on the shared machine (and the
      // server or browser processes of remote/webshop being descheduled) hits both alike.
      for (let e = 0; e < c.episodes; e++) {
        await rawSide.episode(actions);
        await harnessSide.episode(actions);
      }
      return [rawSide.take(), harnessSide.take()];
    };
    await round();
    const raws: Round[] = [];
    const hs: Round[] = [];
    for (let r = 0; r < c.rounds; r++) {
      const [a, b] = await round();
      raws.push(a);
      hs.push(b);
    }
    const m = (rs: Round[], k: keyof Round) => median(rs.map((r) => r[k]));
    // The least disturbed round approximates the uncontended cost on a busy machine.
    const best = (rs: Round[], k: keyof Round) => Math.min(...rs.map((r) => r[k]));
    const rawUs = m(raws, 'stepUs');
    const hUs = m(hs, 'stepUs');
    const where = `${c.task}, ${actions.length} steps x ${c.episodes} episodes x ${c.rounds} rounds (median)`;
    const how = 'policy' in c.agent ? c.agent.policy : 'read_file/search/list_files';
    return [
      {
        id: `bridges.${c.bridge}.raw_step`,
        name: `${c.bridge} raw step`,
        value: rawUs,
        unit: 'µs/step',
        note: `${where}; ${how}`,
      },
      {
        id: `bridges.${c.bridge}.harnessed_step`,
        name: `${c.bridge} Stage+Contract(2 hooks) step`,
        value: hUs,
        unit: 'µs/step',
        note: `stage of ${c.stage.length} set-up action(s); best rounds ${best(raws, 'stepUs').toFixed(0)} -> ${best(hs, 'stepUs').toFixed(0)} µs`,
      },
      {
        id: `bridges.${c.bridge}.harnessed_over_raw`,
        name: `${c.bridge} harnessed / raw`,
        value: hUs / rawUs,
        unit: 'x',
        note: `CPU (this process) ${m(raws, 'stepCpuUs').toFixed(0)} -> ${m(hs, 'stepCpuUs').toFixed(0)} µs/step; added ${(hUs - rawUs).toFixed(0)} µs wall`,
      },
    ];
  } finally {
    await raw.close();
    await harness.close();
  }
}

export async function benchBridges(only: string[] = []): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const c of CASES.filter((x) => only.length === 0 || only.includes(x.bridge))) {
    const t = performance.now();
    rows.push(...(await benchCase(c)));
    const last = rows.at(-1);
    if (last)
      last.note = `${last.note ?? ''}; case took ${((performance.now() - t) / 1000).toFixed(1)} s`;
  }
  rows.push({
    name: 'machine load (1 min) during the bridge bench',
    value: os.loadavg()[0] ?? 0,
    unit: 'load',
    note: `${os.availableParallelism()} cores`,
  });
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // `npx tsx bench/bridges.ts webarena officeqa` measures only those bridges.
  const rows = await benchBridges(process.argv.slice(2));
  for (const row of rows) {
    const v = Number.isInteger(row.value) ? String(row.value) : row.value.toPrecision(3);
    console.log(`${row.name.padEnd(44)} ${v.padStart(9)} ${row.unit.padEnd(8)} ${row.note ?? ''}`);
  }
  process.exit(0);
}
