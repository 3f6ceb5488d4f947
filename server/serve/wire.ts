// A harness as OpenEnv sees it: the action / observation / state JSON Schemas of GET /schema, an
// incoming action dict turned into a tool call (`{"message": …}` for the text tool, as OpenEnv's
// TextArena env; `{"tool", "args"}` for any tool) or pydantic-style validation errors, and a step
// turned into serialize_observation()'s `{observation, reward, done, metadata}`.
import '#server-only';
import { validateJsonSchema } from '../../bridges/core/schema.ts';
import type {
  Action,
  Evaluation,
  Json,
  JsonObject,
  JsonSchema,
  Observation,
  StepInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import type { ValidationIssue } from '../../bridges/openenv/protocol.ts';

export interface ServedShape {
  tools: ToolSpec[];
  textTool: { name: string; arg: string } | null;
  stateSchema: JsonSchema;
}

const METADATA_FIELD: JsonSchema = {
  additionalProperties: true,
  description: 'Additional metadata for the action',
  title: 'Metadata',
  type: 'object',
};

export function actionSchema(s: ServedShape): JsonSchema {
  const names = s.tools.map((t) => t.name);
  const properties: JsonObject = {
    tool: { type: 'string', enum: names, title: 'Tool', description: 'The tool to call' },
    args: {
      type: 'object',
      title: 'Args',
      description: "The tool's arguments (see $defs: tool_<name>)",
      additionalProperties: true,
    },
    metadata: METADATA_FIELD,
  };
  const ways: JsonObject[] = [{ required: ['tool'] }];
  if (s.textTool) {
    properties.message = {
      type: 'string',
      title: 'Message',
      description: `A command for the text tool '${s.textTool.name}' (its '${s.textTool.arg}' argument)`,
    };
    ways.unshift({ required: ['message'] });
  }
  const $defs: JsonObject = {};
  for (const t of s.tools)
    $defs[`tool_${t.name}`] = { ...t.parameters, description: t.description };
  return {
    title: 'HarnessAction',
    type: 'object',
    description: s.textTool
      ? 'Either {"message": "<command>"} or {"tool": name, "args": {…}}.'
      : 'A tool call: {"tool": name, "args": {…}}.',
    properties,
    anyOf: ways,
    additionalProperties: false,
    $defs,
  };
}

export const OBSERVATION_SCHEMA: JsonSchema = {
  title: 'HarnessObservation',
  type: 'object',
  additionalProperties: false,
  properties: {
    done: { type: 'boolean', default: false, title: 'Done' },
    reward: { anyOf: [{ type: 'number' }, { type: 'null' }], default: null, title: 'Reward' },
    metadata: {
      type: 'object',
      additionalProperties: true,
      title: 'Metadata',
      description: 'seed, task_id, step, invalid, blocked; on the last observation, evaluation',
    },
    text: { type: 'string', title: 'Text', description: 'What the agent is shown' },
    legal_actions: {
      type: 'array',
      items: { type: 'string' },
      title: 'Legal Actions',
      description: 'Commands the text tool accepts now, when the environment lists them',
    },
    data: { title: 'Data', description: 'Structured observation data, when the bridge has some' },
  },
  required: ['text'],
};

export function stateSchema(s: ServedShape): JsonSchema {
  return {
    title: 'HarnessState',
    type: 'object',
    additionalProperties: true,
    properties: {
      episode_id: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
      step_count: { type: 'integer', minimum: 0, default: 0 },
      task_id: { type: 'string' },
      seed: { type: 'integer' },
      state: s.stateSchema,
    },
  };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An action dict as a tool call, or the reasons it is not one (VALIDATION_ERROR's `errors`). */
export function parseAction(
  data: unknown,
  s: ServedShape,
): { ok: true; action: Action } | { ok: false; errors: ValidationIssue[] } {
  const issue = (type: string, loc: (string | number)[], msg: string, input?: Json) => ({
    ok: false as const,
    errors: [{ type, loc, msg, ...(input !== undefined ? { input } : {}) }],
  });
  if (!isObject(data)) return issue('model_type', [], 'Input should be an object', data as Json);
  const extra = Object.keys(data).filter(
    (k) => !['message', 'tool', 'args', 'metadata'].includes(k),
  );
  if (extra.length > 0) {
    return {
      ok: false,
      errors: extra.map((k) => ({
        type: 'extra_forbidden',
        loc: [k],
        msg: `Extra inputs are not permitted (send {"message": …}${s.textTool ? '' : ' — not here: this environment has no text tool —'} or {"tool", "args"})`,
        input: data[k] as Json,
      })),
    };
  }
  if ('message' in data && 'tool' in data)
    return issue('value_error', [], 'Send either "message" or "tool", not both');
  if ('message' in data) {
    const message = data.message;
    if (!s.textTool)
      return issue(
        'value_error',
        ['message'],
        `This environment has no text tool; send {"tool": one of ${s.tools.map((t) => t.name).join(', ')}, "args": {…}}`,
      );
    if (typeof message !== 'string')
      return issue('string_type', ['message'], 'Input should be a valid string', message as Json);
    return { ok: true, action: { name: s.textTool.name, args: { [s.textTool.arg]: message } } };
  }
  if (!('tool' in data))
    return issue('missing', ['message'], 'Field required: "message" or "tool"');
  const tool = s.tools.find((t) => t.name === data.tool);
  if (!tool)
    return issue(
      'enum',
      ['tool'],
      `Input should be one of ${s.tools.map((t) => `'${t.name}'`).join(', ')}`,
      data.tool as Json,
    );
  const args = data.args ?? {};
  if (!isObject(args))
    return issue('dict_type', ['args'], 'Input should be a valid dictionary', args as Json);
  const problems = validateJsonSchema(tool.parameters, args);
  if (problems.length > 0) {
    return {
      ok: false,
      errors: problems.map((msg) => ({ type: 'value_error', loc: ['args'], msg, input: args })),
    };
  }
  return { ok: true, action: { name: tool.name, args } };
}

/** serialize_observation(): the observation's fields, reward and done beside them, metadata. */
export function serializeObservation(o: {
  observation: Observation;
  info: StepInfo;
  reward: number | null;
  done: boolean;
  metadata: JsonObject;
}): { observation: JsonObject; reward: number | null; done: boolean; metadata: JsonObject } {
  const observation: JsonObject = { text: o.observation.text };
  if (Array.isArray(o.info.admissibleCommands))
    observation.legal_actions = o.info.admissibleCommands;
  if (o.observation.data !== undefined) observation.data = o.observation.data;
  return { observation, reward: o.reward, done: o.done, metadata: o.metadata };
}

export function evaluationMetadata(e: Evaluation): JsonObject {
  return {
    success: e.success,
    score: e.score,
    metrics: e.metrics,
    ...(e.rule ? { rule: e.rule } : {}),
  };
}
