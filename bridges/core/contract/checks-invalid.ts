// Checks on what must not break a bridge: unknown tools, malformed arguments, nonsense typed into the
// text tool (each a clear observation with info.invalid, which Stage and EnvRigger rely on to tell a
// rejected action), close twice, step after close.
import { mulberry32 } from '../rng.ts';
import { validateJsonSchema } from '../schema.ts';
import type { Json, JsonObject, JsonSchema, StepResult } from '../types.ts';
import type { ContractCheck } from './context.ts';
import { toolArgs } from './context.ts';
import {
  ContractViolation,
  errorText,
  fail,
  isObject,
  UNKNOWN_TOOL,
  withTimeout,
} from './support.ts';

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

export const INVALID_AND_CLOSE_CHECKS: ContractCheck[] = [
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
    name: 'invalid action: a command typed into the text tool that the env cannot carry out gives info.invalid',
    async run(ctx) {
      const textTool = ctx.bridge.textTool;
      if (!textTool) return;
      const [task] = await ctx.sampleTasks();
      const command = 'zz-contract-probe-zz';
      await ctx.withEnv(async (env) => {
        await env.reset({ taskId: task!.id, seed: ctx.seeds[0]! });
        let result: StepResult;
        try {
          result = await env.step({ name: textTool.name, args: { [textTool.arg]: command } });
        } catch (error) {
          fail(`step() threw on '${command}' typed into ${textTool.name}: ${errorText(error)}`);
        }
        assertInvalid(result, `'${command}' typed into ${textTool.name}`);
      });
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
