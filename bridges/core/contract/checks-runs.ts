// Checks over generated runs: the task list and tools, seeded reset and step determinism,
// save -> fromState -> continue, and the state view as plain JSON that its schema validates.
import { validateJsonSchema } from '../schema.ts';
import type { ActionableEnv, EnvSnapshot, Json, ToolSpec } from '../types.ts';
import type { ContractCheck } from './context.ts';
import { label, trace } from './context.ts';
import { plainJsonProblem } from './plain-json.ts';
import {
  ContractViolation,
  fail,
  firstDifference,
  isObject,
  same,
  TOOL_NAME_RE,
  UNKNOWN_TOOL,
  withTimeout,
} from './support.ts';

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

export const RUN_CHECKS: ContractCheck[] = [
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
];
