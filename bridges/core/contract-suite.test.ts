// The suite must pass a correct bridge and catch each kind of broken one.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainJsonProblem, runContractSuite } from './contract-suite.ts';
import { describeContract } from './contract-suite.vitest.ts';
import { zodToJsonSchema } from './schema.ts';
import {
  type Action,
  type ActionableEnv,
  type Bridge,
  type EnvSnapshot,
  type Json,
  type StepResult,
  type TaskInfo,
  UnknownTaskError,
} from './types.ts';

type Fault =
  | 'random-reset'
  | 'random-step'
  | 'throw-on-bad-action'
  | 'invalid-without-flag'
  | 'state-undefined'
  | 'state-date'
  | 'schema-mismatch'
  | 'close-twice-throws'
  | 'bad-tool-schema'
  | 'restore-loses-progress'
  | 'no-tasks'
  | 'hang-after-close'
  | 'reset-accepts-unknown-task';

const StateSchema = z.strictObject({
  total: z.number().int(),
  target: z.number().int(),
  moves: z.number().int(),
});
const TASKS: TaskInfo[] = [3, 5, 8].map((target) => ({
  id: `reach-${target}`,
  type: 'sum',
  goal: `Reach ${target}.`,
  split: 'train',
}));

/** A small counter game: add 1..3 until the total reaches the target. Correct unless a fault is injected. */
function counterBridge(fault?: Fault): Bridge {
  // Plays so far: 'random-step' adds 1 to every step of every other play, so two plays of the same
  // actions always differ (a coin per step, as before, could match across two short plays: the
  // suite then passed the bridge and this test failed, once in a full run).
  let plays = 0;
  const tools = [
    {
      name: 'add',
      description: 'Add n (1..3) to the total.',
      parameters:
        fault === 'bad-tool-schema'
          ? { type: 'string' }
          : zodToJsonSchema(z.strictObject({ n: z.number().int().min(1).max(3) })),
    },
  ];
  class CounterEnv implements ActionableEnv {
    readonly envType = 'counter';
    state = { total: 0, target: 0, moves: 0 };
    taskId = '';
    seed = 0;
    obs = { text: '' };
    closed = 0;
    async listTasks() {
      return fault === 'no-tasks' ? [] : TASKS;
    }
    async reset(o: { taskId: string; seed: number }) {
      if (!TASKS.some((t) => t.id === o.taskId) && fault !== 'reset-accepts-unknown-task') {
        throw new UnknownTaskError('counter', o.taskId);
      }
      const target = Number(o.taskId.split('-')[1]);
      this.taskId = o.taskId;
      this.seed = o.seed;
      plays += 1;
      this.state = {
        total: fault === 'random-reset' ? Math.floor(Math.random() * 1e6) : o.seed % 2,
        target,
        moves: 0,
      };
      this.obs = { text: `Total ${this.state.total}, target ${target}.` };
      return { observation: this.obs, info: {} };
    }
    async step(action: Action): Promise<StepResult> {
      if (this.closed && fault === 'hang-after-close') await new Promise(() => {});
      const n = action.args.n;
      if (
        action.name !== 'add' ||
        typeof n !== 'number' ||
        !Number.isInteger(n) ||
        n < 1 ||
        n > 3
      ) {
        if (fault === 'throw-on-bad-action') throw new TypeError(`bad action ${action.name}`);
        this.obs = { text: `Invalid: use add {n} with n in 1..3.` };
        return {
          observation: this.obs,
          reward: 0,
          terminated: false,
          truncated: false,
          info: fault === 'invalid-without-flag' ? {} : { invalid: true },
        };
      }
      this.state = {
        ...this.state,
        total: this.state.total + n + (fault === 'random-step' ? plays % 2 : 0),
        moves: this.state.moves + 1,
      };
      const done = this.state.total >= this.state.target;
      this.obs = { text: `Total ${this.state.total}.` };
      return {
        observation: this.obs,
        reward: done ? 1 : 0,
        terminated: done,
        truncated: false,
        info: {},
      };
    }
    observe() {
      return this.obs;
    }
    async evaluate() {
      const success = this.state.total === this.state.target;
      return { success, score: success ? 1 : 0, metrics: { moves: this.state.moves } };
    }
    getEnvState(): Json {
      if (fault === 'state-undefined')
        return { ...this.state, extra: undefined } as unknown as Json;
      if (fault === 'state-date') return { ...this.state, at: new Date(0) } as unknown as Json;
      if (fault === 'schema-mismatch') return { ...this.state, total: String(this.state.total) };
      return { ...this.state };
    }
    stateSchema() {
      return zodToJsonSchema(StateSchema);
    }
    tools() {
      return tools;
    }
    async saveState(): Promise<EnvSnapshot> {
      return {
        envType: 'counter',
        reset: { taskId: this.taskId, seed: this.seed },
        state: { ...this.state, obs: this.obs.text },
      };
    }
    async close() {
      this.closed++;
      if (this.closed > 1 && fault === 'close-twice-throws') throw new Error('already closed');
    }
  }
  return {
    name: fault ? `counter-${fault}` : 'counter',
    description: 'counter game',
    splits: ['train'],
    listTasks: async () => (fault === 'no-tasks' ? [] : TASKS),
    getTask: async (id) => TASKS.find((t) => t.id === id),
    tools: () => tools,
    stateSchema: () => zodToJsonSchema(StateSchema),
    create: async () => new CounterEnv(),
    async fromState(snapshot) {
      const env = new CounterEnv();
      await env.reset(snapshot.reset);
      if (fault !== 'restore-loses-progress') {
        const s = snapshot.state as { total: number; target: number; moves: number; obs: string };
        env.state = { total: s.total, target: s.target, moves: s.moves };
        env.obs = { text: s.obs };
      }
      return env;
    },
  };
}

const failing = async (fault: Fault) =>
  (
    await runContractSuite(counterBridge(fault), {
      tasks: 2,
      seeds: [0, 1],
      steps: 5,
      timeoutMs: 2_000,
    })
  ).filter((r) => !r.ok);

describe('runContractSuite', () => {
  it('passes a correct bridge', async () => {
    const results = await runContractSuite(counterBridge());
    expect(results.length).toBeGreaterThanOrEqual(12);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  const expectations: [Fault, RegExp][] = [
    ['random-reset', /^reset: /],
    ['random-step', /^step: same actions/],
    ['throw-on-bad-action', /^invalid action: /],
    ['invalid-without-flag', /^invalid action: an unknown tool/],
    ['state-undefined', /^state: getEnvState\(\) is plain JSON/],
    ['state-date', /^state: getEnvState\(\) is plain JSON/],
    ['schema-mismatch', /^state: stateSchema\(\) validates/],
    ['close-twice-throws', /^close: closing twice/],
    ['bad-tool-schema', /^tools: /],
    ['restore-loses-progress', /^save -> fromState/],
    ['no-tasks', /^tasks: /],
    ['hang-after-close', /^close: step after close/],
    ['reset-accepts-unknown-task', /^reset: an unknown task id/],
  ];
  for (const [fault, check] of expectations) {
    it(`fails a bridge with fault '${fault}'`, async () => {
      const failed = await failing(fault);
      expect(failed.length).toBeGreaterThan(0);
      const hit = failed.find((r) => check.test(r.name));
      expect(hit, `failed checks: ${failed.map((r) => r.name).join(' | ')}`).toBeDefined();
      expect(hit?.detail).toBeTruthy();
    });
  }

  it('reports non-JSON values precisely', () => {
    expect(plainJsonProblem({ a: [1, { b: Number.NaN }] })).toBe('$.a[1].b is NaN');
    expect(plainJsonProblem({ f: () => 1 })).toBe('$.f is a function');
    expect(plainJsonProblem(new Map())).toBe('$ is a Map object');
    expect(plainJsonProblem({ ok: [null, true, 's', 1.5, {}] })).toBeUndefined();
  });
});

describeContract(counterBridge(), { tasks: 2, steps: 4 });
