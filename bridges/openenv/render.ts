// What an OpenEnv server's schemas and observation dicts become on our side: one tool whose
// arguments are the action's fields (typed as the action schema says), the text tool when the action
// is one required string, a readable observation text, and the list fields an agent may pick from.
import type { Json, JsonObject, JsonSchema, ToolSpec } from '../core/types.ts';

export const OPENENV_TOOL = 'act';

/** OpenEnv's Action base class adds `metadata` to every action: not something an agent chooses. */
const HIDDEN_FIELDS = new Set(['metadata']);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The action's fields as the parameters of one tool (pydantic's `$defs` kept for `$ref`s). */
export function toolFromActionSchema(action: JsonSchema, envName: string): ToolSpec {
  const props = isObject(action.properties) ? action.properties : {};
  const properties: JsonObject = {};
  for (const [key, value] of Object.entries(props)) {
    if (!HIDDEN_FIELDS.has(key)) properties[key] = value;
  }
  const required = (Array.isArray(action.required) ? action.required : []).filter(
    (k): k is string => typeof k === 'string' && !HIDDEN_FIELDS.has(k),
  );
  const parameters: JsonObject = { type: 'object', properties, required };
  if (action.additionalProperties === false) parameters.additionalProperties = false;
  if (isObject(action.$defs)) parameters.$defs = action.$defs;
  const title = typeof action.title === 'string' ? action.title : 'action';
  const description =
    typeof action.description === 'string' && action.description.trim() !== ''
      ? action.description.trim()
      : `Send one ${title} to ${envName}.`;
  const fields = Object.keys(properties);
  return {
    name: OPENENV_TOOL,
    description: `${description} (OpenEnv action ${title}${fields.length ? `: ${fields.join(', ')}` : ''})`,
    parameters,
  };
}

/** The text tool: an action of exactly one required string field (TextArena's `message`, …). */
export function textToolOf(tool: ToolSpec): { name: string; arg: string } | undefined {
  const props = isObject(tool.parameters.properties) ? tool.parameters.properties : {};
  const keys = Object.keys(props);
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const only = keys[0];
  if (keys.length !== 1 || only === undefined || !required.includes(only)) return undefined;
  const prop = props[only];
  return isObject(prop) && prop.type === 'string' ? { name: tool.name, arg: only } : undefined;
}

/** Fields read first, in this order, when the server names none (OpenEnv envs' usual text fields). */
export const TEXT_FIELDS = ['prompt', 'text', 'message', 'output'] as const;

const LIST_FIELD = /legal|admissible|valid|available|allowed|actions|moves|choices|options/i;

function inline(value: Json): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null))
    return value.map((v) => String(v)).join(', ');
  return JSON.stringify(value);
}

/**
 * A readable rendering of an observation dict: the named field (a per-server option) when it is
 * there, else the first of prompt/text/message/output, then the other fields as `name: value` lines.
 */
export function renderObservation(observation: JsonObject, field?: string): string {
  if (field !== undefined && observation[field] !== undefined && observation[field] !== null) {
    return inline(observation[field] as Json);
  }
  const lead = TEXT_FIELDS.find((k) => typeof observation[k] === 'string' && observation[k] !== '');
  const lines: string[] = lead ? [observation[lead] as string] : [];
  for (const [key, value] of Object.entries(observation)) {
    if (key === lead || value === null || value === undefined) continue;
    if (typeof value === 'string' && value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    lines.push(`${key}: ${inline(value)}`);
  }
  return lines.join('\n') || '(empty observation)';
}

/** The list of choices an observation offers (legal actions, admissible commands …), if any. */
export function choicesOf(observation: JsonObject): string[] | undefined {
  for (const [key, value] of Object.entries(observation)) {
    if (!LIST_FIELD.test(key) || !Array.isArray(value) || value.length === 0) continue;
    if (value.every((v) => typeof v === 'string')) return value as string[];
  }
  return undefined;
}
