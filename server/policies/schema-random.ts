// `scripted:schema-random`: the generic baseline that runs on every bridge. Each step it samples a
// valid action from the tools' JSON Schemas (seeded), and when the environment offers a list of
// choices (info.admissibleCommands, legal actions or any list of strings in the step info or
// observation data) it picks from that list instead. No goal, no memory: the smoke test of a new
// bridge, and the floor any real policy should beat.
import type {
  Action,
  Json,
  JsonObject,
  JsonSchema,
  Observation,
  StepInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { createRng, mixSeed } from './rng.ts';
import type { Policy } from './types.ts';

type Rng = () => number;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pick<T>(items: readonly T[], rng: Rng): T {
  return items[Math.floor(rng() * items.length)] as T;
}

const LIST_KEY = /legal|admissible|valid|available|allowed|actions|moves|choices|options/i;

/** The choices an environment offers this step, if it offers any. */
export function choicesOf(info: StepInfo, observation: Observation): string[] | undefined {
  if (Array.isArray(info.admissibleCommands) && info.admissibleCommands.length > 0)
    return info.admissibleCommands;
  const seen = new Set<unknown>();
  const search = (value: unknown, depth: number): string[] | undefined => {
    if (!isObject(value) || depth > 3 || seen.has(value)) return undefined;
    seen.add(value);
    for (const [key, v] of Object.entries(value)) {
      if (key === 'harness') continue;
      if (
        LIST_KEY.test(key) &&
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((x) => typeof x === 'string')
      )
        return v as string[];
    }
    for (const v of Object.values(value)) {
      const found = search(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return search(info, 0) ?? search(observation.data, 0);
}

interface SampleContext {
  rng: Rng;
  root: JsonSchema;
  choices: string[] | undefined;
  words: string[];
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = m ? root[m[1]!] : undefined;
  const found = isObject(defs) ? defs[m![2]!] : undefined;
  return isObject(found) ? found : undefined;
}

/** A value the schema accepts (for the keywords tool schemas use: type, enum, const, ranges, $ref, anyOf). */
export function sampleFromSchema(schema: JsonSchema, c: SampleContext, depth = 0): Json {
  if (depth > 8) return null;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, c.root);
    return target ? sampleFromSchema(target, c, depth + 1) : null;
  }
  if (schema.const !== undefined) return schema.const as Json;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(schema.enum, c.rng) as Json;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    const nonNull = branches.filter((b) => !(isObject(b) && b.type === 'null'));
    return sampleFromSchema(pick(nonNull.length > 0 ? nonNull : branches, c.rng), c, depth + 1);
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  if (type === undefined) type = isObject(schema.properties) ? 'object' : 'string';
  switch (type) {
    case 'boolean':
      return c.rng() < 0.5;
    case 'integer':
    case 'number': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const hi = typeof schema.maximum === 'number' ? schema.maximum : lo + 9;
      const x = lo + c.rng() * (hi - lo);
      return type === 'integer'
        ? Math.max(Math.ceil(lo), Math.min(Math.floor(hi), Math.round(x)))
        : x;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 2;
      const n = min + Math.floor(c.rng() * (Math.max(min, max) - min + 1));
      const items = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: n }, () => sampleFromSchema(items, c, depth + 1));
    }
    case 'object': {
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const out: JsonObject = {};
      for (const [key, prop] of Object.entries(props)) {
        if (!isObject(prop)) continue;
        if (required.has(key) || c.rng() < 0.5) out[key] = sampleFromSchema(prop, c, depth + 1);
      }
      return out;
    }
    case 'null':
      return null;
    default: {
      // A string: one of the offered choices, or a word of what the environment said.
      let s =
        c.choices && c.choices.length > 0 && c.rng() < 0.8
          ? pick(c.choices, c.rng)
          : c.words.length > 0
            ? pick(c.words, c.rng)
            : 'x';
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      while (s.length < minLength) s += 'x';
      if (typeof schema.maxLength === 'number') s = s.slice(0, schema.maxLength);
      return s;
    }
  }
}

/** One action: from the offered choices through the text tool when both exist, else from a schema. */
export function sampleAction(
  tools: ToolSpec[],
  textTool: { name: string; arg: string } | undefined,
  observation: Observation,
  info: StepInfo,
  rng: Rng,
): Action | undefined {
  const choices = choicesOf(info, observation);
  if (textTool && choices && tools.some((t) => t.name === textTool.name))
    return { name: textTool.name, args: { [textTool.arg]: pick(choices, rng) } };
  if (tools.length === 0) return undefined;
  const tool = pick(tools, rng);
  const words = [...new Set(observation.text.match(/[\w.-]+/g) ?? [])].slice(0, 200);
  const args = sampleFromSchema(tool.parameters, {
    rng,
    root: tool.parameters,
    choices,
    words,
  });
  return { name: tool.name, args: isObject(args) ? args : {} };
}

export const schemaRandom: Policy = {
  descriptor: {
    id: 'scripted:schema-random',
    kind: 'scripted',
    description:
      'Generic baseline for any bridge: each step a seeded random valid action from the tool schemas, picked from the offered choices (legal actions, admissible commands) when the environment lists some.',
    weaknesses: [
      'no goal and no memory: acts at random, so it succeeds only where random play can',
      'never plans: any task that needs a sequence of right moves defeats it',
    ],
  },
  async start(context) {
    const rng = createRng(mixSeed(context.seed, 'schema-random'));
    return {
      async act(observation, info) {
        const action = sampleAction(context.tools, context.textTool, observation, info, rng);
        if (!action) return { kind: 'give_up', reason: 'the environment has no tools' };
        return { kind: 'act', action };
      },
    };
  },
};
