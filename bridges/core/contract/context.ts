// The generated side of the suite: tasks spread over the bridge's list, and one deterministic action
// sequence per (task, seed) drawn from admissible commands and tool schemas, replayed by the checks.
import { fnv1a, mulberry32 } from '../rng.ts';
import type {
  Action,
  ActionableEnv,
  Bridge,
  Json,
  JsonObject,
  JsonSchema,
  StepResult,
  TaskInfo,
  ToolSpec,
} from '../types.ts';
import { type ContractOptions, fail, isObject, UNKNOWN_TOOL } from './support.ts';

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

export function toolArgs(tool: ToolSpec, rng: () => number, words: string[]): JsonObject {
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

export interface Plan {
  task: TaskInfo;
  seed: number;
  actions: Action[];
}

/** One check of the suite: it fails by throwing (a ContractViolation, or anything else). */
export interface ContractCheck {
  name: string;
  run(ctx: ContractContext): Promise<void>;
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
    this.timeoutMs = options.timeoutMs ?? bridge.contractTimeoutMs ?? 30_000;
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

export interface Trace {
  reset: { observation: unknown; info: unknown; state: unknown };
  steps: { result: StepResult; state: Json; observed: unknown }[];
  evaluation: unknown;
}

export async function trace(env: ActionableEnv, plan: Plan): Promise<Trace> {
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

export function label(plan: Plan): string {
  return `task ${plan.task.id} seed ${plan.seed}`;
}
