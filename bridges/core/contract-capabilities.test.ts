// The contract checks added for text tools and capabilities: a correct text bridge with pinTask /
// displayTaskId passes them, and each kind of broken one is caught.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runContractSuite } from './contract-suite.ts';
import { invalidStep, stepResult } from './helpers.ts';
import { zodToJsonSchema } from './schema.ts';
import {
  type Action,
  type ActionableEnv,
  type Bridge,
  type EnvSnapshot,
  type TaskInfo,
  UnknownTaskError,
} from './types.ts';

type Fault =
  | 'text-invalid-without-flag'
  | 'pin-keeps-seed'
  | 'pin-twice'
  | 'display-keeps-pin'
  | 'setup-keeps-count'
  | 'setup-not-saved';

const TASKS: TaskInfo[] = ['lamp', 'door'].map((id) => ({
  id,
  type: 'light',
  goal: `Switch on the ${id}.`,
  split: 'train',
}));
const StateSchema = z.strictObject({ task: z.string(), start: z.number().int(), on: z.boolean() });

const TOOLS = [
  {
    name: 'say',
    description: 'Type a command: `switch on` or `look`.',
    parameters: zodToJsonSchema(z.strictObject({ text: z.string() })),
  },
];
const parse = (id: string) => /^(\w+)(?:@start(\d+))?$/.exec(id);

/** `<task>@start<N>`: a text game whose start position comes from N when pinned, else from the seed. */
class SwitchEnv implements ActionableEnv {
  constructor(private readonly fault?: Fault) {}

  readonly envType = 'switch';
  s = { task: '', start: 0, on: false };
  reset_ = { taskId: '', seed: 0 };
  obs = { text: '' };
  steps = 0;
  async listTasks() {
    return TASKS;
  }
  async reset(o: { taskId: string; seed: number }) {
    const m = parse(o.taskId);
    if (!m || !TASKS.some((t) => t.id === m[1])) throw new UnknownTaskError('switch', o.taskId);
    const pinned = m[2] !== undefined && this.fault !== 'pin-keeps-seed';
    this.s = { task: m[1]!, start: pinned ? Number(m[2]) : o.seed % 4, on: false };
    this.reset_ = { taskId: o.taskId, seed: o.seed };
    this.steps = 0;
    this.obs = { text: `You stand at spot ${this.s.start}. The ${m[1]} is off.` };
    return { observation: this.obs, info: {} };
  }
  async step(a: Action) {
    this.steps += 1;
    const text = a.name === 'say' ? a.args.text : undefined;
    if (text === 'switch on') {
      this.s = { ...this.s, on: true };
      this.obs = { text: `The ${this.s.task} is on.` };
      return stepResult(this.obs, { reward: 1, terminated: true });
    }
    if (text === 'look') return stepResult(this.obs);
    const obs = { text: `I do not understand ${JSON.stringify(text ?? a.name)}.` };
    this.obs = obs;
    return this.fault === 'text-invalid-without-flag' && typeof text === 'string'
      ? stepResult(obs)
      : invalidStep(obs);
  }
  observe() {
    return this.obs;
  }
  afterSetup() {
    if (this.fault !== 'setup-keeps-count') this.steps = 0;
  }
  describeState() {
    return {
      text: `You stand at spot ${this.s.start}. The ${this.s.task} is ${this.s.on ? 'on' : 'off'}.`,
    };
  }
  async evaluate() {
    return { success: this.s.on, score: this.s.on ? 1 : 0, metrics: { steps: this.steps } };
  }
  getEnvState() {
    return { ...this.s };
  }
  stateSchema() {
    return zodToJsonSchema(StateSchema);
  }
  tools() {
    return TOOLS;
  }
  async saveState(): Promise<EnvSnapshot> {
    return {
      envType: 'switch',
      reset: { ...this.reset_ },
      state: { ...this.s, obs: this.obs.text, steps: this.steps },
    };
  }
  async close() {}
}

function switchBridge(fault?: Fault): Bridge {
  return {
    name: 'switch',
    description: 'Switch on a thing.',
    splits: ['train'],
    textTool: { name: 'say', arg: 'text' },
    listTasks: async () => TASKS,
    getTask: async (id) => {
      const m = parse(id);
      const t = TASKS.find((x) => x.id === m?.[1]);
      return t ? { ...t, id } : undefined;
    },
    tools: () => TOOLS,
    stateSchema: () => zodToJsonSchema(StateSchema),
    create: async () => new SwitchEnv(fault),
    async fromState(snapshot) {
      const env = new SwitchEnv(fault);
      await env.reset(snapshot.reset);
      const s = snapshot.state as {
        task: string;
        start: number;
        on: boolean;
        obs: string;
        steps: number;
      };
      env.s = { task: s.task, start: s.start, on: s.on };
      env.obs = { text: s.obs };
      env.steps = fault === 'setup-not-saved' ? s.steps + 1 : s.steps;
      return env;
    },
    pinTask: (id, variant) =>
      fault === 'pin-twice' || !/@start\d+$/.test(id) ? `${id}@start${variant}` : id,
    displayTaskId: (id) => (fault === 'display-keeps-pin' ? id : id.replace(/@start\d+$/, '')),
  };
}

const failedNames = async (fault?: Fault) =>
  (await runContractSuite(switchBridge(fault), { seeds: [0, 1, 2], timeoutMs: 5_000 }))
    .filter((r) => !r.ok)
    .map((r) => `${r.name}: ${r.detail}`);

describe('contract checks: text tool and capabilities', () => {
  it('pass a correct text bridge with pinTask and displayTaskId', async () => {
    expect(await failedNames()).toEqual([]);
  });

  const expectations: [Fault, RegExp][] = [
    ['text-invalid-without-flag', /^invalid action: a command typed into the text tool/],
    ['pin-keeps-seed', /^capabilities: .*different start states/],
    ['pin-twice', /^capabilities: .*unchanged/],
    ['display-keeps-pin', /^capabilities: .*displayTaskId/],
    ['setup-keeps-count', /^capabilities: afterSetup.*'steps' is \d+, not 0/],
    ['setup-not-saved', /^capabilities: afterSetup.*snapshot taken after afterSetup/],
  ];
  for (const [fault, expected] of expectations) {
    it(`catch a bridge with fault '${fault}'`, async () => {
      const failed = await failedNames(fault);
      expect(
        failed.some((f) => expected.test(f)),
        failed.join(' | '),
      ).toBe(true);
    });
  }
});
