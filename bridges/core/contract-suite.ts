// The ActionableEnv contract every bridge must honour (DESIGN.md "Core contract"), as a reusable suite:
// runContractSuite(bridge) for `harness check`, describeContract(bridge) (contract-suite.vitest.ts)
// for a bridge's own tests. Action sequences are generated deterministically from the bridge's
// admissible commands and tool schemas, so a failure reproduces.
import { fnv1a, mulberry32 } from './rng.ts';
import { canonicalJson, validateJsonSchema } from './schema.ts';
import type {
  Action,
  ActionableEnv,
  Bridge,
  EnvSnapshot,
  Json,
  JsonObject,
  JsonSchema,
  StepResult,
  TaskInfo,
  ToolSpec,
} from './types.ts';

export interface ContractOptions {
  /** How many tasks to exercise, spread evenly over listTasks() (default 2). */
  tasks?: number;
  /** Seeds to reset with (default [0, 7]). */
  seeds?: number[];
  /** Actions per generated sequence (default 6). */
  steps?: number;
  /** Per-check time limit, so a hanging bridge fails instead of hanging the caller (default 30 s). */
  timeoutMs?: number;
}

export interface ContractResult {
  name: string;
  ok: boolean;
  detail?: string;
}

/** A check fails by throwing this (or anything else: an unexpected throw is a failure too). */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export interface ContractCheck {
  name: string;
  run(ctx: ContractContext): Promise<void>;
}

const UNKNOWN_TOOL = '__contract_unknown_tool__';
const TOOL_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

function fail(message: string): never {
  throw new ContractViolation(message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ContractViolation(`${what} did not finish within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First reason `value` is not plain JSON (undefined, functions, class instances, NaN, cycles...), or undefined. */
export function plainJsonProblem(
  value: unknown,
  path = '$',
  seen = new Set<object>(),
): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (value === undefined) return `${path} is undefined`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} is a cycle`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) return `${path}[${i}] is a hole`;
        const problem = plainJsonProblem(value[i], `${path}[${i}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      return `${path} is a ${value.constructor?.name ?? 'non-plain'} object`;
    }
    if (Object.getOwnPropertySymbols(value).length > 0) return `${path} has symbol keys`;
    for (const [key, item] of Object.entries(value)) {
      const problem = plainJsonProblem(item, `${path}.${key}`, seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a as Json) === canonicalJson(b as Json);
}

function firstDifference(a: unknown, b: unknown): string {
  const left = canonicalJson(a as Json);
  const right = canonicalJson(b as Json);
  let i = 0;
  while (i < left.length && left[i] === right[i]) i++;
  const from = Math.max(0, i - 40);
  return `…${left.slice(from, i + 60)}… vs …${right.slice(from, i + 60)}…`;
}

/** Deterministic sample of a value satisfying (most) JSON Schemas, preferring words from the text. */
function sampleFromSchema(schema: JsonSchema, rng: () => number, words: string[], depth = 0): Json {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(schema.enum);
  if ('const' in schema) return schema.const as Json;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const alt = pick(alternatives);
    return isObject(alt) ? sampleFromSchema(alt as JsonSchema, rng, words, depth + 1) : null;
  }
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 10) : min + 10;
  switch (type) {
    case 'integer':
      return Math.floor(min + rng() * (max - min + 1));
    case 'number':
      return Math.floor(min + rng() * (max - min + 1));
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'array': {
      if (depth > 4) return [];
      const items = isObject(schema.items) ? (schema.items as JsonSchema) : {};
      return Array.from({ length: Math.floor(rng() * 3) }, () =>
        sampleFromSchema(items, rng, words, depth + 1),
      );
    }
    case 'object': {
      if (depth > 4) return {};
      const out: JsonObject = {};
      const props = isObject(schema.properties)
        ? (schema.properties as Record<string, JsonSchema>)
        : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const [key, prop] of Object.entries(props)) {
        if (required.includes(key) || rng() < 0.5)
          out[key] = sampleFromSchema(prop, rng, words, depth + 1);
      }
      return out;
    }
    default:
      return words.length > 0 ? pick(words) : 'x';
  }
}

function textWords(text: string): string[] {
  return [...new Set(text.split(/[^\p{L}\p{N}_./-]+/u).filter((w) => w.length > 0))].slice(0, 200);
}

function toolArgs(tool: ToolSpec, rng: () => number, words: string[]): JsonObject {
  const sampled = sampleFromSchema(tool.parameters, rng, words);
  return isObject(sampled) ? (sampled as JsonObject) : {};
}

/** The next generated action: mostly admissible text commands when the bridge lists them, else tool calls. */
function nextAction(
  bridge: Bridge,
  tools: ToolSpec[],
  last: StepResult | { observation: { text: string }; info: JsonObject },
  rng: () => number,
): Action {
  const admissible = last.info.admissibleCommands;
  if (bridge.textTool && Array.isArray(admissible) && admissible.length > 0 && rng() < 0.85) {
    const command = admissible[Math.floor(rng() * admissible.length)];
    if (typeof command === 'string')
      return { name: bridge.textTool.name, args: { [bridge.textTool.arg]: command } };
  }
  const tool = tools[Math.floor(rng() * tools.length)];
  if (!tool) return { name: UNKNOWN_TOOL, args: {} };
  return { name: tool.name, args: toolArgs(tool, rng, textWords(last.observation.text)) };
}

interface Plan {
  task: TaskInfo;
  seed: number;
  actions: Action[];
}

export class ContractContext {
  private tasksCache: Promise<TaskInfo[]> | undefined;
  private plansCache: Promise<Plan[]> | undefined;
  readonly tasks: number;
  readonly seeds: number[];
  readonly steps: number;
  readonly timeoutMs: number;

  constructor(
    readonly bridge: Bridge,
    options: ContractOptions = {},
  ) {
    this.tasks = Math.max(1, options.tasks ?? 2);
    this.seeds = options.seeds && options.seeds.length > 0 ? options.seeds : [0, 7];
    this.steps = Math.max(1, options.steps ?? 6);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Tasks spread evenly over the bridge's list. */
  sampleTasks(): Promise<TaskInfo[]> {
    this.tasksCache ??= (async () => {
      const all = await this.bridge.listTasks();
      if (all.length === 0) fail('listTasks() returned no tasks');
      const count = Math.min(this.tasks, all.length);
      const stride = all.length / count;
      return Array.from({ length: count }, (_, i) => all[Math.floor(i * stride)]!);
    })();
    return this.tasksCache;
  }

  /** One generated action sequence per (task, seed), reused by every check that replays actions. */
  plans(): Promise<Plan[]> {
    this.plansCache ??= (async () => {
      const plans: Plan[] = [];
      for (const task of await this.sampleTasks()) {
        for (const seed of this.seeds) {
          const rng = mulberry32(fnv1a(`${task.id}:${seed}`));
          const env = await this.bridge.create();
          try {
            let last: StepResult | Awaited<ReturnType<ActionableEnv['reset']>> = await env.reset({
              taskId: task.id,
              seed,
            });
            const tools = env.tools();
            const actions: Action[] = [];
            for (let i = 0; i < this.steps; i++) {
              // One unknown tool mid-sequence: invalid actions must be deterministic and harmless too.
              const action =
                i === 1
                  ? { name: UNKNOWN_TOOL, args: { why: 'contract probe' } }
                  : nextAction(this.bridge, tools, last, rng);
              actions.push(action);
              last = await env.step(action);
              if ('terminated' in last && (last.terminated || last.truncated)) break;
            }
            plans.push({ task, seed, actions });
          } finally {
            await env.close();
          }
        }
      }
      return plans;
    })();
    return this.plansCache;
  }

  async withEnv<T>(use: (env: ActionableEnv) => Promise<T>): Promise<T> {
    const env = await this.bridge.create();
    try {
      return await use(env);
    } finally {
      await env.close();
    }
  }
}

interface Trace {
  reset: { observation: unknown; info: unknown; state: unknown };
  steps: { result: StepResult; state: Json; observed: unknown }[];
  evaluation: unknown;
}

async function trace(env: ActionableEnv, plan: Plan): Promise<Trace> {
  const reset = await env.reset({ taskId: plan.task.id, seed: plan.seed });
  const out: Trace = {
    reset: { observation: reset.observation, info: reset.info, state: env.getEnvState() },
    steps: [],
    evaluation: undefined,
  };
  for (const action of plan.actions) {
    const result = await env.step(action);
    out.steps.push({ result, state: env.getEnvState(), observed: env.observe() });
  }
  out.evaluation = await env.evaluate();
  return out;
}

function label(plan: Plan): string {
  return `task ${plan.task.id} seed ${plan.seed}`;
}

function validToolSpec(tool: ToolSpec): string | undefined {
  if (!isObject(tool)) return 'a tool is not an object';
  if (typeof tool.name !== 'string' || !TOOL_NAME_RE.test(tool.name)) {
    return `tool name ${JSON.stringify(tool.name)} must match ${TOOL_NAME_RE}`;
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '')
    return `tool ${tool.name} has no description`;
  const p = tool.parameters;
  if (!isObject(p) || p.type !== 'object')
    return `tool ${tool.name}: parameters must be a JSON Schema of type "object"`;
  const jsonProblem = plainJsonProblem(p);
  if (jsonProblem) return `tool ${tool.name}: parameters are not plain JSON (${jsonProblem})`;
  if (p.properties !== undefined && !isObject(p.properties))
    return `tool ${tool.name}: properties must be an object`;
  const props = isObject(p.properties) ? p.properties : {};
  if (p.required !== undefined) {
    if (!Array.isArray(p.required)) return `tool ${tool.name}: required must be an array`;
    for (const key of p.required) {
      if (typeof key !== 'string' || !(key in props))
        return `tool ${tool.name}: required '${String(key)}' is not a property`;
    }
  }
  for (const [key, prop] of Object.entries(props)) {
    if (!isObject(prop) && typeof prop !== 'boolean')
      return `tool ${tool.name}: property '${key}' is not a schema`;
  }
  return undefined;
}

function assertInvalid(result: unknown, what: string): void {
  if (!isObject(result)) fail(`${what}: step returned ${JSON.stringify(result)}`);
  const r = result as Partial<StepResult>;
  const text = r.observation?.text;
  if (typeof text !== 'string' || text.trim().length < 5)
    fail(`${what}: the observation does not say what was wrong (${JSON.stringify(text)})`);
  if (r.info?.invalid !== true)
    fail(`${what}: info.invalid is ${JSON.stringify(r.info?.invalid)}, expected true`);
  if (r.reward !== 0 && typeof r.reward === 'number' && r.reward > 0)
    fail(`${what}: an invalid action earned reward ${r.reward}`);
}

/** A value that the property schema rejects, to probe argument validation; undefined when anything goes. */
function wrongValue(prop: JsonSchema): Json | undefined {
  const candidates: Json[] = [
    { contract: ['probe'] },
    3.25,
    true,
    'zz-contract-probe-zz',
    null,
    [[]],
  ];
  return candidates.find((c) => validateJsonSchema(prop, c).length > 0);
}

export const CONTRACT_CHECKS: ContractCheck[] = [
  {
    name: 'tasks: listTasks is non-empty and getTask agrees',
    async run(ctx) {
      const all = await ctx.bridge.listTasks();
      if (!Array.isArray(all) || all.length === 0) fail('listTasks() returned no tasks');
      const ids = new Set<string>();
      for (const t of all) {
        if (typeof t.id !== 'string' || t.id === '') fail(`a task has no id: ${JSON.stringify(t)}`);
        if (ids.has(t.id)) fail(`duplicate task id ${t.id}`);
        ids.add(t.id);
        if (!ctx.bridge.splits.includes(t.split))
          fail(`task ${t.id} has split '${t.split}', not one of ${ctx.bridge.splits.join(', ')}`);
        if (typeof t.goal !== 'string' || t.goal === '') fail(`task ${t.id} has no goal`);
      }
      for (const t of await ctx.sampleTasks()) {
        const got = await ctx.bridge.getTask(t.id);
        if (!same(got, t))
          fail(`getTask('${t.id}') differs from listTasks(): ${firstDifference(got, t)}`);
        const problem = plainJsonProblem(t);
        if (problem) fail(`task ${t.id} is not plain JSON: ${problem}`);
      }
      const missing = await ctx.bridge.getTask('__contract_no_such_task__');
      if (missing !== undefined) fail('getTask() of an unknown id must return undefined');
      const split = ctx.bridge.splits[0];
      if (split !== undefined) {
        const filtered = await ctx.bridge.listTasks({ split });
        if (filtered.some((t) => t.split !== split))
          fail(`listTasks({ split: '${split}' }) returned other splits`);
      }
    },
  },
  {
    name: 'tools: valid LLM tool-call schemas',
    async run(ctx) {
      const tools = ctx.bridge.tools();
      if (!Array.isArray(tools) || tools.length === 0) fail('the bridge exposes no tools');
      const names = new Set<string>();
      for (const tool of tools) {
        const problem = validToolSpec(tool);
        if (problem) fail(problem);
        if (names.has(tool.name)) fail(`duplicate tool name ${tool.name}`);
        names.add(tool.name);
      }
      if (ctx.bridge.textTool && !names.has(ctx.bridge.textTool.name))
        fail(`textTool '${ctx.bridge.textTool.name}' is not among the tools`);
      await ctx.withEnv(async (env) => {
        if (!same(env.tools(), tools))
          fail(`env.tools() differs from bridge.tools(): ${firstDifference(env.tools(), tools)}`);
      });
    },
  },
  {
    name: 'reset: same task and seed give identical observation and state',
    async run(ctx) {
      for (const task of await ctx.sampleTasks()) {
        for (const seed of ctx.seeds) {
          const view = async (env: ActionableEnv) => {
            const r = await env.reset({ taskId: task.id, seed });
            return {
              observation: r.observation,
              info: r.info,
              state: env.getEnvState(),
              observed: env.observe(),
            };
          };
          const first = await ctx.withEnv(view);
          const second = await ctx.withEnv(view);
          if (!same(first, second))
            fail(
              `task ${task.id} seed ${seed}: two fresh resets differ: ${firstDifference(first, second)}`,
            );
          const again = await ctx.withEnv(async (env) => {
            await view(env);
            await env.step({ name: UNKNOWN_TOOL, args: {} });
            return view(env);
          });
          if (!same(first, again))
            fail(
              `task ${task.id} seed ${seed}: reset of a used env differs from a fresh one: ${firstDifference(first, again)}`,
            );
        }
      }
    },
  },
  {
    name: 'reset: an unknown task id is rejected with an error',
    async run(ctx) {
      await ctx.withEnv(async (env) => {
        let resolved = false;
        try {
          await withTimeout(
            env.reset({ taskId: '__contract_no_such_task__', seed: ctx.seeds[0]! }),
            Math.min(ctx.timeoutMs / 2, 5_000),
            'reset of an unknown task',
          );
          resolved = true;
        } catch (error) {
          if (error instanceof ContractViolation) throw error;
          if (!(error instanceof Error))
            fail(`reset of an unknown task threw a non-Error: ${String(error)}`);
        }
        if (resolved)
          fail('reset() of an unknown task id succeeded; it must reject (e.g. UnknownTaskError)');
      });
    },
  },
  {
    name: 'step: same actions give identical results',
    async run(ctx) {
      for (const plan of await ctx.plans()) {
        const a = await ctx.withEnv((env) => trace(env, plan));
        const b = await ctx.withEnv((env) => trace(env, plan));
        if (!same(a, b))
          fail(
            `${label(plan)}: two runs of ${plan.actions.length} actions differ: ${firstDifference(a, b)}`,
          );
      }
    },
  },
  {
    name: 'save -> fromState -> continue equals an uninterrupted run',
    async run(ctx) {
      for (const plan of await ctx.plans()) {
        const whole = await ctx.withEnv((env) => trace(env, plan));
        const cuts = [...new Set([0, Math.floor(plan.actions.length / 2), plan.actions.length])];
        for (const cut of cuts) {
          const snapshot = await ctx.withEnv(async (env) => {
            await env.reset({ taskId: plan.task.id, seed: plan.seed });
            for (const action of plan.actions.slice(0, cut)) await env.step(action);
            return env.saveState();
          });
          const problem = plainJsonProblem(snapshot);
          if (problem) fail(`${label(plan)}: saveState() is not plain JSON: ${problem}`);
          // Rebuild from the JSON text, as a store would: the snapshot must survive serialisation.
          const restored = await ctx.bridge.fromState(
            JSON.parse(JSON.stringify(snapshot)) as EnvSnapshot,
          );
          try {
            const expectedBefore = cut === 0 ? whole.reset.state : whole.steps[cut - 1]?.state;
            if (!same(restored.getEnvState(), expectedBefore)) {
              fail(
                `${label(plan)}: state after fromState at step ${cut} differs: ${firstDifference(restored.getEnvState(), expectedBefore)}`,
              );
            }
            const expectedObs =
              cut === 0 ? whole.reset.observation : whole.steps[cut - 1]?.observed;
            if (!same(restored.observe(), expectedObs)) {
              fail(
                `${label(plan)}: observe() after fromState at step ${cut} differs: ${firstDifference(restored.observe(), expectedObs)}`,
              );
            }
            for (let i = cut; i < plan.actions.length; i++) {
              const result = await restored.step(plan.actions[i]!);
              const got = { result, state: restored.getEnvState(), observed: restored.observe() };
              if (!same(got, whole.steps[i])) {
                fail(
                  `${label(plan)}: restored at step ${cut}, step ${i} differs: ${firstDifference(got, whole.steps[i])}`,
                );
              }
            }
            const evaluation = await restored.evaluate();
            if (!same(evaluation, whole.evaluation))
              fail(
                `${label(plan)}: evaluate() after restore differs: ${firstDifference(evaluation, whole.evaluation)}`,
              );
          } finally {
            await restored.close();
          }
        }
      }
    },
  },
  {
    name: 'state: getEnvState() is plain JSON',
    async run(ctx) {
      for (const plan of await ctx.plans()) {
        const t = await ctx.withEnv((env) => trace(env, plan));
        const views = [t.reset.state, ...t.steps.map((s) => s.state)];
        views.forEach((view, i) => {
          const problem = plainJsonProblem(view);
          if (problem)
            fail(
              `${label(plan)}: state view ${i === 0 ? 'after reset' : `after step ${i - 1}`}: ${problem}`,
            );
          if (!same(JSON.parse(JSON.stringify(view)), view))
            fail(`${label(plan)}: state view does not survive a JSON round trip`);
        });
      }
    },
  },
  {
    name: 'state: stateSchema() validates every state view',
    async run(ctx) {
      const schema = ctx.bridge.stateSchema();
      const problem = plainJsonProblem(schema);
      if (problem) fail(`stateSchema() is not plain JSON: ${problem}`);
      if (!isObject(schema) || Object.keys(schema).length === 0) fail('stateSchema() is empty');
      for (const plan of await ctx.plans()) {
        const t = await ctx.withEnv(async (env) => {
          if (!same(env.stateSchema(), schema))
            fail('env.stateSchema() differs from bridge.stateSchema()');
          return trace(env, plan);
        });
        const views = [t.reset.state, ...t.steps.map((s) => s.state)];
        views.forEach((view, i) => {
          const errors = validateJsonSchema(schema, view as Json);
          if (errors.length > 0)
            fail(
              `${label(plan)}: state view ${i} violates stateSchema(): ${errors.slice(0, 3).join('; ')}`,
            );
        });
      }
    },
  },
  {
    name: 'step: results are well-formed 5-tuples and observe() matches',
    async run(ctx) {
      for (const plan of await ctx.plans()) {
        const t = await ctx.withEnv((env) => trace(env, plan));
        if (typeof (t.reset.observation as { text?: unknown })?.text !== 'string')
          fail(`${label(plan)}: reset observation has no text`);
        t.steps.forEach(({ result, observed }, i) => {
          const where = `${label(plan)} step ${i}`;
          if (!isObject(result)) fail(`${where}: step returned ${JSON.stringify(result)}`);
          if (typeof result.observation?.text !== 'string')
            fail(`${where}: observation.text is not a string`);
          if (typeof result.reward !== 'number' || !Number.isFinite(result.reward))
            fail(`${where}: reward ${result.reward} is not a finite number`);
          if (typeof result.terminated !== 'boolean' || typeof result.truncated !== 'boolean')
            fail(`${where}: terminated/truncated must be booleans`);
          if (!isObject(result.info)) fail(`${where}: info is not an object`);
          const problem = plainJsonProblem(result);
          if (problem) fail(`${where}: the step result is not plain JSON: ${problem}`);
          if (!same(observed, result.observation))
            fail(`${where}: observe() differs from the step's observation`);
        });
        const ev = t.evaluation as { success?: unknown; score?: unknown; metrics?: unknown };
        if (
          typeof ev?.success !== 'boolean' ||
          typeof ev.score !== 'number' ||
          !isObject(ev.metrics)
        ) {
          fail(`${label(plan)}: evaluate() returned ${JSON.stringify(ev)}`);
        }
      }
    },
  },
  {
    name: 'invalid action: an unknown tool gives a clear observation with info.invalid',
    async run(ctx) {
      const [task] = await ctx.sampleTasks();
      await ctx.withEnv(async (env) => {
        await env.reset({ taskId: task!.id, seed: ctx.seeds[0]! });
        let result: StepResult;
        try {
          result = await env.step({ name: UNKNOWN_TOOL, args: { x: 1 } });
        } catch (error) {
          fail(`step() threw on an unknown tool: ${errorText(error)}`);
        }
        assertInvalid(result, 'unknown tool');
      });
    },
  },
  {
    name: 'invalid action: malformed arguments give a clear observation with info.invalid',
    async run(ctx) {
      const [task] = await ctx.sampleTasks();
      const rng = mulberry32(1);
      for (const tool of ctx.bridge.tools()) {
        const props = isObject(tool.parameters.properties)
          ? (tool.parameters.properties as Record<string, JsonSchema>)
          : {};
        const required = Array.isArray(tool.parameters.required)
          ? (tool.parameters.required as string[])
          : [];
        const probes: { what: string; args: JsonObject }[] = [];
        if (required.length > 0) probes.push({ what: `${tool.name} with no arguments`, args: {} });
        for (const key of required) {
          const prop = props[key];
          const wrong = prop ? wrongValue(prop) : undefined;
          if (wrong === undefined) continue;
          probes.push({
            what: `${tool.name} with ${key}=${JSON.stringify(wrong)}`,
            args: { ...toolArgs(tool, rng, []), [key]: wrong },
          });
        }
        for (const probe of probes) {
          await ctx.withEnv(async (env) => {
            await env.reset({ taskId: task!.id, seed: ctx.seeds[0]! });
            let result: StepResult;
            try {
              result = await env.step({ name: tool.name, args: probe.args });
            } catch (error) {
              fail(`step() threw on ${probe.what}: ${errorText(error)}`);
            }
            assertInvalid(result, probe.what);
          });
        }
      }
    },
  },
  {
    name: 'close: closing twice is safe',
    async run(ctx) {
      const [task] = await ctx.sampleTasks();
      const env = await ctx.bridge.create();
      await env.reset({ taskId: task!.id, seed: ctx.seeds[0]! });
      await env.close();
      try {
        await env.close();
      } catch (error) {
        fail(`the second close() threw: ${errorText(error)}`);
      }
      const fresh = await ctx.bridge.create();
      await fresh.close();
      try {
        await fresh.close();
      } catch (error) {
        fail(`closing a never-reset env twice threw: ${errorText(error)}`);
      }
    },
  },
  {
    name: 'close: step after close does not crash the host',
    async run(ctx) {
      const [task] = await ctx.sampleTasks();
      const env = await ctx.bridge.create();
      await env.reset({ taskId: task!.id, seed: ctx.seeds[0]! });
      const tool = ctx.bridge.tools()[0];
      await env.close();
      // Either a result or a rejected promise carrying an Error is fine; a hang or a non-Error throw is not.
      try {
        await withTimeout(
          env.step({ name: tool?.name ?? UNKNOWN_TOOL, args: {} }),
          Math.min(ctx.timeoutMs / 2, 5_000),
          'step after close',
        );
      } catch (error) {
        if (error instanceof ContractViolation) throw error;
        if (!(error instanceof Error)) fail(`step after close threw a non-Error: ${String(error)}`);
      }
    },
  },
];

export async function runCheck(
  check: ContractCheck,
  ctx: ContractContext,
): Promise<ContractResult> {
  try {
    await withTimeout(check.run(ctx), ctx.timeoutMs, check.name);
    return { name: check.name, ok: true };
  } catch (error) {
    const detail =
      error instanceof ContractViolation ? error.message : `unexpected error: ${errorText(error)}`;
    return { name: check.name, ok: false, detail };
  }
}

export async function runContractSuite(
  bridge: Bridge,
  opts?: ContractOptions,
): Promise<ContractResult[]> {
  const ctx = new ContractContext(bridge, opts);
  const results: ContractResult[] = [];
  for (const check of CONTRACT_CHECKS) results.push(await runCheck(check, ctx));
  return results;
}
