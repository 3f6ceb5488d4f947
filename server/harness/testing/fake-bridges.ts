// Two tiny deterministic bridges for engine tests that must not depend on the real benchmarks:
// `room` (one text tool `act`, ALFWorld-like feedback) and `counter` (structured tools).

import { resolverOf } from '../../../bridges/core/capabilities.ts';
import type {
  Action,
  ActionableEnv,
  Bridge,
  EnvSnapshot,
  Evaluation,
  Json,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
  TaskInfo,
  ToolSpec,
} from '../../../bridges/core/types.ts';

interface RoomState {
  holding: string | null;
  box: { open: boolean; contents: string[] };
  table: string[];
  clean: string[];
  seed: number;
}

const ROOM_TASKS: TaskInfo[] = [
  { id: 'key-in-box', type: 'pick', goal: 'put the key in the box', split: 'train' },
  { id: 'clean-key', type: 'clean', goal: 'put a clean key in the box', split: 'train' },
  { id: 'hold-coin', type: 'pick', goal: 'hold the coin', split: 'train' },
];

const ACT_TOOL: ToolSpec = {
  name: 'act',
  description: 'Type a command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
  },
};

class RoomEnv implements ActionableEnv {
  readonly envType = 'room';
  private s: RoomState = {
    holding: null,
    box: { open: false, contents: [] },
    table: [],
    clean: [],
    seed: 0,
  };
  private task: TaskInfo = ROOM_TASKS[0]!;
  private last: Observation = { text: '' };
  private resetOpts: ResetOptions | undefined;
  private actions: Action[] = [];
  closed = 0;
  stepCalls = 0;

  async listTasks() {
    return ROOM_TASKS;
  }
  async reset(o: ResetOptions): Promise<ResetResult> {
    const task = ROOM_TASKS.find((t) => t.id === o.taskId);
    if (!task) throw new Error(`unknown task ${o.taskId}`);
    this.task = task;
    this.resetOpts = o;
    this.actions = [];
    // The seed decides where things start, so determinism is observable.
    this.s = {
      holding: null,
      box: { open: o.seed % 2 === 1, contents: [] },
      table: o.seed % 3 === 0 ? ['key', 'coin'] : ['coin', 'key'],
      clean: [],
      seed: o.seed,
    };
    this.last = {
      text: `You are in a room. On the table, you see ${this.s.table.join(' and ')}. The box is ${this.s.box.open ? 'open' : 'closed'}.\n\nYour task is to: ${task.goal}.`,
    };
    return { observation: this.last, info: { admissibleCommands: this.admissible() } };
  }
  private admissible(): string[] {
    const out = ['look'];
    if (!this.s.holding) for (const o of this.s.table) out.push(`take ${o}`);
    out.push(this.s.box.open ? 'close box' : 'open box');
    if (this.s.holding) out.push(`put ${this.s.holding} in box`, `clean ${this.s.holding}`);
    return out;
  }
  private done(): boolean {
    if (this.task.id === 'key-in-box') return this.s.box.contents.includes('key');
    if (this.task.id === 'clean-key') {
      return this.s.box.contents.includes('key') && this.s.clean.includes('key');
    }
    return this.s.holding === 'coin';
  }
  async step(action: Action): Promise<StepResult> {
    this.stepCalls += 1;
    this.actions.push(action);
    const cmd = action.name === 'act' ? String(action.args.command ?? '').trim() : '';
    let text = 'Nothing happens.';
    let invalid = true;
    const take = /^take (\w+)$/.exec(cmd);
    const put = /^put (\w+) in box$/.exec(cmd);
    const clean = /^clean (\w+)$/.exec(cmd);
    if (cmd === 'look') {
      text = `On the table, you see ${this.s.table.join(' and ') || 'nothing'}. The box is ${this.s.box.open ? 'open' : 'closed'}. You are fine.`;
      invalid = false;
    } else if (take && !this.s.holding && this.s.table.includes(take[1]!)) {
      this.s.table = this.s.table.filter((o) => o !== take[1]);
      this.s.holding = take[1]!;
      text = `You pick up the ${take[1]}. It feels light. Nothing else.`;
      invalid = false;
    } else if (
      take &&
      !this.s.holding &&
      this.s.box.open &&
      this.s.box.contents.includes(take[1]!)
    ) {
      this.s.box.contents = this.s.box.contents.filter((o) => o !== take[1]);
      this.s.holding = take[1]!;
      text = `You pick up the ${take[1]} from the box.`;
      invalid = false;
    } else if (cmd === 'open box' && !this.s.box.open) {
      this.s.box.open = true;
      text = `You open the box. In it, you see ${this.s.box.contents.join(' and ') || 'nothing'}.`;
      invalid = false;
    } else if (cmd === 'close box' && this.s.box.open) {
      this.s.box.open = false;
      text = 'You close the box.';
      invalid = false;
    } else if (put && this.s.holding === put[1] && this.s.box.open) {
      this.s.box.contents.push(put[1]!);
      this.s.holding = null;
      text = `You put the ${put[1]} in the box.`;
      invalid = false;
    } else if (clean && (this.s.holding === clean[1] || this.s.table.includes(clean[1]!))) {
      // Deliberately lax (cleans things on the table too): contracts tighten it.
      if (!this.s.clean.includes(clean[1]!)) this.s.clean.push(clean[1]!);
      text = `You clean the ${clean[1]}.`;
      invalid = false;
    }
    this.last = { text };
    const reward = this.done() ? 1 : 0;
    return {
      observation: this.last,
      reward,
      terminated: this.done(),
      truncated: false,
      info: invalid
        ? { invalid: true, admissibleCommands: this.admissible() }
        : { admissibleCommands: this.admissible() },
    };
  }
  observe() {
    return this.last;
  }
  async evaluate(): Promise<Evaluation> {
    const ok = this.done();
    return { success: ok, score: ok ? 1 : 0, metrics: { holding: this.s.holding ? 1 : 0 } };
  }
  getEnvState(): Json {
    return structuredClone(this.s) as unknown as Json;
  }
  stateSchema() {
    return { type: 'object' };
  }
  tools() {
    return [ACT_TOOL];
  }
  async saveState(): Promise<EnvSnapshot> {
    return { envType: 'room', reset: this.resetOpts!, actions: [...this.actions] };
  }
  async close() {
    this.closed += 1;
  }
}

interface CounterState {
  value: number;
  target: number;
  seed: number;
}

const COUNTER_TASKS: TaskInfo[] = [
  { id: 'reach-5', type: 'count', goal: 'make the counter exactly 5', split: 'train' },
];

class CounterEnv implements ActionableEnv {
  readonly envType = 'counter';
  private s: CounterState = { value: 0, target: 5, seed: 0 };
  private last: Observation = { text: '' };
  private resetOpts: ResetOptions | undefined;
  async listTasks() {
    return COUNTER_TASKS;
  }
  async reset(o: ResetOptions): Promise<ResetResult> {
    this.resetOpts = o;
    this.s = { value: 0, target: 5, seed: o.seed };
    this.last = {
      text: `The counter shows ${this.s.value}. Your task is to: make the counter exactly 5.`,
    };
    return { observation: this.last, info: {} };
  }
  async step(action: Action): Promise<StepResult> {
    let invalid = false;
    if (action.name === 'add' && typeof action.args.n === 'number') this.s.value += action.args.n;
    else if (action.name === 'stop') {
      this.last = { text: `You stop at ${this.s.value}.` };
      return {
        observation: this.last,
        reward: this.s.value === 5 ? 1 : 0,
        terminated: true,
        truncated: false,
        info: {},
      };
    } else invalid = true;
    this.last = { text: invalid ? 'Nothing happens.' : `The counter shows ${this.s.value}.` };
    return {
      observation: this.last,
      reward: 0,
      terminated: this.s.value > 5,
      truncated: false,
      info: invalid ? { invalid: true } : {},
    };
  }
  observe() {
    return this.last;
  }
  async evaluate(): Promise<Evaluation> {
    const ok = this.s.value === this.s.target;
    return { success: ok, score: ok ? 1 : 0, metrics: { value: this.s.value } };
  }
  getEnvState(): Json {
    return { ...this.s };
  }
  stateSchema() {
    return { type: 'object' };
  }
  tools(): ToolSpec[] {
    return [
      {
        name: 'add',
        description: 'add n',
        parameters: { type: 'object', properties: { n: { type: 'number' } } },
      },
      { name: 'stop', description: 'finish', parameters: { type: 'object', properties: {} } },
    ];
  }
  async saveState(): Promise<EnvSnapshot> {
    return { envType: 'counter', reset: this.resetOpts! };
  }
  async close() {}
}

function makeBridge(
  name: string,
  tasks: TaskInfo[],
  create: () => ActionableEnv,
  textTool?: { name: string; arg: string },
): Bridge & { created: ActionableEnv[] } {
  const created: ActionableEnv[] = [];
  const bridge: Bridge & { created: ActionableEnv[] } = {
    name,
    description: `test bridge ${name}`,
    splits: ['train'],
    created,
    async listTasks() {
      return tasks;
    },
    async getTask(id) {
      return tasks.find((t) => t.id === id);
    },
    tools: () => create().tools(),
    stateSchema: () => ({ type: 'object' }),
    async create() {
      const env = create();
      created.push(env);
      return env;
    },
    async fromState() {
      throw new Error('not used');
    },
  };
  if (textTool) Object.assign(bridge, { textTool });
  return bridge;
}

/** Fresh fake bridges per test (they remember the environments they created). */
export function fakeBridges() {
  const room = makeBridge('room', ROOM_TASKS, () => new RoomEnv(), { name: 'act', arg: 'command' });
  const counter = makeBridge('counter', COUNTER_TASKS, () => new CounterEnv());
  return { room, counter, bridges: resolverOf([room, counter]) };
}

export const act = (command: string): Action => ({ name: 'act', args: { command } });
