// Fixture bridges with known verifiers for the audit's tests: `lockbox` (a sound verifier: the gem
// must be in the box), `lockbox-lax` (a broken verifier whose evaluate ignores the goal) and
// `lockbox-tipsy` (pays a step reward for taking the gem, which the verdict never credits) and
// `lockbox-submit` (the episode ends on `submit`, which only flips a flag; the verifier judges the
// box). All have an oracle (`solve`), one text tool and look / inventory.
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

type Flavour = 'sound' | 'lax' | 'tipsy' | 'submit';

const TASKS: TaskInfo[] = [
  { id: 'gem-in-box', type: 'pick', goal: 'put the gem in the box', split: 'test' },
  { id: 'coin-in-box', type: 'pick', goal: 'put the coin in the box', split: 'test' },
];

const ACT: ToolSpec = {
  name: 'act',
  description: 'Type a command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' } },
    required: ['command'],
  },
};

interface State {
  item: string;
  holding: boolean;
  boxOpen: boolean;
  inBox: boolean;
  submitted: boolean;
}

const act = (command: string): Action => ({ name: 'act', args: { command } });

class LockboxEnv implements ActionableEnv {
  readonly envType: string;
  private s: State = {
    item: 'gem',
    holding: false,
    boxOpen: false,
    inBox: false,
    submitted: false,
  };
  private last: Observation = { text: '' };
  private resetOpts: ResetOptions = { taskId: 'gem-in-box', seed: 0 };

  constructor(private readonly flavour: Flavour) {
    this.envType = `lockbox-${flavour}`;
  }
  async listTasks() {
    return TASKS;
  }
  private admissible(): string[] {
    const s = this.s;
    return [
      'look',
      'inventory',
      ...(s.holding || s.inBox ? [] : [`take ${s.item}`]),
      s.boxOpen ? 'close box' : 'open box',
      ...(s.holding && s.boxOpen ? [`put ${s.item} in box`] : []),
      ...(this.flavour === 'submit' ? ['submit'] : []),
    ];
  }
  async reset(o: ResetOptions): Promise<ResetResult> {
    const task = TASKS.find((t) => t.id === o.taskId);
    if (!task) throw new Error(`unknown task ${o.taskId}`);
    this.resetOpts = o;
    this.s = {
      item: task.id.split('-')[0] as string,
      holding: false,
      boxOpen: false,
      inBox: false,
      submitted: false,
    };
    this.last = {
      text: `A ${this.s.item} lies on the table; the box is closed.\n\nYour task is to: ${task.goal}.`,
    };
    return { observation: this.last, info: { admissibleCommands: this.admissible() } };
  }
  private won(): boolean {
    return this.s.inBox && (this.flavour !== 'submit' || this.s.submitted);
  }
  async step(action: Action): Promise<StepResult> {
    const s = this.s;
    const cmd = action.name === 'act' ? String(action.args.command ?? '').trim() : '';
    let text = 'Nothing happens.';
    let invalid = true;
    let reward = 0;
    const wasWon = this.won();
    if (cmd === 'look') {
      text = `The ${s.item} is ${s.holding ? 'in your hand' : s.inBox ? 'in the box' : 'on the table'}; the box is ${s.boxOpen ? 'open' : 'closed'}.`;
      invalid = false;
    } else if (cmd === 'inventory') {
      text = s.holding ? `You are carrying: a ${s.item}.` : 'You are not carrying anything.';
      invalid = false;
    } else if (cmd === `take ${s.item}` && !s.holding && !s.inBox) {
      s.holding = true;
      text = `You pick up the ${s.item}.`;
      invalid = false;
      if (this.flavour === 'tipsy') reward = 0.5;
    } else if (cmd === 'open box' && !s.boxOpen) {
      s.boxOpen = true;
      text = 'You open the box.';
      invalid = false;
    } else if (cmd === 'close box' && s.boxOpen) {
      s.boxOpen = false;
      text = 'You close the box.';
      invalid = false;
    } else if (cmd === 'submit' && this.flavour === 'submit' && !s.submitted) {
      s.submitted = true;
      text = 'Submitted.';
      invalid = false;
    } else if (cmd === `put ${s.item} in box` && s.holding && s.boxOpen) {
      s.holding = false;
      s.inBox = true;
      text = `You put the ${s.item} in the box.`;
      invalid = false;
    }
    if (!wasWon && this.won()) reward += 1;
    this.last = { text };
    return {
      observation: this.last,
      reward,
      terminated: this.won() || s.submitted,
      truncated: false,
      info: { admissibleCommands: this.admissible(), ...(invalid ? { invalid: true } : {}) },
    };
  }
  observe() {
    return this.last;
  }
  async evaluate(): Promise<Evaluation> {
    // The lax verifier ignores the goal: whatever happened, it passes.
    const ok = this.flavour === 'lax' ? true : this.s.inBox;
    return { success: ok, score: ok ? 1 : 0, metrics: {} };
  }
  async solve(): Promise<Action[] | undefined> {
    const s = this.s;
    const submit = this.flavour === 'submit' && !s.submitted ? [act('submit')] : [];
    if (s.inBox) return submit;
    return [
      ...(s.holding ? [] : [act(`take ${s.item}`)]),
      ...(s.boxOpen ? [] : [act('open box')]),
      act(`put ${s.item} in box`),
      ...submit,
    ];
  }
  getEnvState(): Json {
    return { ...this.s };
  }
  stateSchema() {
    return { type: 'object' };
  }
  tools() {
    return [ACT];
  }
  async saveState(): Promise<EnvSnapshot> {
    return { envType: this.envType, reset: this.resetOpts, state: { ...this.s } };
  }
  async close() {}
}

export function lockboxBridge(flavour: Flavour = 'sound'): Bridge {
  const name = flavour === 'sound' ? 'lockbox' : `lockbox-${flavour}`;
  return {
    name,
    description: `Put the item in the box (${flavour} verifier).`,
    splits: ['test'],
    textTool: { name: 'act', arg: 'command' },
    listTasks: async () => TASKS,
    getTask: async (id) => TASKS.find((t) => t.id === id),
    tools: () => [ACT],
    stateSchema: () => ({ type: 'object' }),
    create: async () => new LockboxEnv(flavour),
    fromState: async () => {
      throw new Error('not needed');
    },
  };
}
