// zod -> JSON Schema for state views and tool parameters, and a small JSON Schema checker so the
// contract suite can validate state views without a heavy validator dependency.
import { z } from 'zod';
import type { Json, JsonObject, JsonSchema } from './types.ts';

export interface ZodToJsonSchemaOptions {
  /** Keep the `$schema` dialect marker (default false: tool parameters and state views omit it). */
  keepDialect?: boolean;
  /** Which side of a transform to describe (default 'output': what the value looks like once parsed). */
  io?: 'input' | 'output';
}

/** zod 4 schema -> plain-JSON JSON Schema (draft 2020-12). */
export function zodToJsonSchema(
  schema: z.ZodType,
  options: ZodToJsonSchemaOptions = {},
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: options.io ?? 'output',
    unrepresentable: 'any',
  });
  // A JSON round trip drops anything that is not plain JSON (zod may attach non-enumerable helpers).
  const plain = JSON.parse(JSON.stringify(generated)) as JsonObject;
  if (!options.keepDialect) delete plain.$schema;
  return plain;
}

function typeOf(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: Json, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: Json = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node)) return undefined;
    node = node[key] as Json;
  }
  return isObject(node) ? node : undefined;
}

/**
 * Checks `value` against the JSON Schema keywords that zod emits (type, properties, required,
 * additionalProperties, items, prefixItems, enum, const, anyOf/oneOf/allOf, min/max bounds, pattern,
 * local $ref). Returns the violations as `path: problem` lines; empty means valid. Unknown keywords
 * are ignored, as JSON Schema prescribes.
 */
export function validateJsonSchema(schema: JsonSchema, value: Json): string[] {
  const run = new SchemaCheck(schema);
  run.check(schema, value, '$', 0);
  return run.errors;
}

/** The sub-schemas under an array keyword (allOf, anyOf, oneOf, prefixItems). */
function subSchemas(node: JsonSchema, key: string): (JsonSchema | boolean)[] {
  return Array.isArray(node[key])
    ? (node[key] as Json[]).filter(
        (s): s is JsonSchema | boolean => isObject(s) || typeof s === 'boolean',
      )
    : [];
}

/** One validation run: the keyword groups in a fixed order, violations collected in `errors`. */
class SchemaCheck {
  readonly errors: string[] = [];

  constructor(private readonly root: JsonSchema) {}

  check(node: JsonSchema | boolean, v: Json, path: string, depth: number): void {
    if (depth > 64) {
      this.errors.push(`${path}: schema nesting too deep`);
      return;
    }
    if (node === true) return;
    if (node === false) {
      this.errors.push(`${path}: no value is allowed here`);
      return;
    }
    if (typeof node.$ref === 'string') {
      const target = resolveRef(this.root, node.$ref);
      if (!target) this.errors.push(`${path}: unresolvable $ref ${node.$ref}`);
      else this.check(target, v, path, depth + 1);
    }
    if (!this.typeMatches(node, v, path)) return;
    if ('const' in node && canonical(node.const as Json) !== canonical(v)) {
      this.errors.push(`${path}: expected ${JSON.stringify(node.const)}`);
    }
    if (Array.isArray(node.enum) && !node.enum.some((e) => canonical(e) === canonical(v))) {
      this.errors.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(node.enum)}`);
    }
    this.combinators(node, v, path, depth);
    if (typeof v === 'number') this.number(node, v, path);
    if (typeof v === 'string') this.string(node, v, path);
    if (Array.isArray(v)) this.array(node, v, path, depth);
    if (isObject(v)) this.object(node, v, path, depth);
  }

  private typeMatches(node: JsonSchema, v: Json, path: string): boolean {
    const type = node.type;
    if (typeof type === 'string' && !matchesType(v, type)) {
      this.errors.push(`${path}: expected ${type}, got ${typeOf(v)}`);
      return false;
    }
    if (Array.isArray(type) && !type.some((t) => typeof t === 'string' && matchesType(v, t))) {
      this.errors.push(`${path}: expected ${type.join('|')}, got ${typeOf(v)}`);
      return false;
    }
    return true;
  }

  private combinators(node: JsonSchema, v: Json, path: string, depth: number): void {
    const passes = (s: JsonSchema | boolean): boolean =>
      validateJsonSchemaNode(this.root, s, v).length === 0;
    for (const s of subSchemas(node, 'allOf')) this.check(s, v, path, depth + 1);
    const anyOf = subSchemas(node, 'anyOf');
    if (anyOf.length > 0 && !anyOf.some(passes)) this.errors.push(`${path}: matches none of anyOf`);
    const oneOf = subSchemas(node, 'oneOf');
    if (oneOf.length > 0 && oneOf.filter(passes).length !== 1) {
      this.errors.push(`${path}: must match exactly one of oneOf`);
    }
  }

  private number(node: JsonSchema, v: number, path: string): void {
    if (typeof node.minimum === 'number' && v < node.minimum)
      this.errors.push(`${path}: below minimum ${node.minimum}`);
    if (typeof node.maximum === 'number' && v > node.maximum)
      this.errors.push(`${path}: above maximum ${node.maximum}`);
    if (typeof node.exclusiveMinimum === 'number' && v <= node.exclusiveMinimum) {
      this.errors.push(`${path}: not above ${node.exclusiveMinimum}`);
    }
    if (typeof node.exclusiveMaximum === 'number' && v >= node.exclusiveMaximum) {
      this.errors.push(`${path}: not below ${node.exclusiveMaximum}`);
    }
  }

  private string(node: JsonSchema, v: string, path: string): void {
    if (typeof node.minLength === 'number' && v.length < node.minLength)
      this.errors.push(`${path}: shorter than ${node.minLength}`);
    if (typeof node.maxLength === 'number' && v.length > node.maxLength)
      this.errors.push(`${path}: longer than ${node.maxLength}`);
    if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(v)) {
      this.errors.push(`${path}: does not match /${node.pattern}/`);
    }
  }

  private array(node: JsonSchema, v: Json[], path: string, depth: number): void {
    if (typeof node.minItems === 'number' && v.length < node.minItems)
      this.errors.push(`${path}: fewer than ${node.minItems} items`);
    if (typeof node.maxItems === 'number' && v.length > node.maxItems)
      this.errors.push(`${path}: more than ${node.maxItems} items`);
    const prefix = subSchemas(node, 'prefixItems');
    v.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : node.items;
      if (isObject(itemSchema) || typeof itemSchema === 'boolean')
        this.check(itemSchema, item, `${path}[${i}]`, depth + 1);
    });
  }

  private object(node: JsonSchema, v: JsonObject, path: string, depth: number): void {
    const props = isObject(node.properties) ? node.properties : {};
    if (Array.isArray(node.required)) {
      for (const key of node.required) {
        if (typeof key === 'string' && !(key in v))
          this.errors.push(`${path}: missing required property '${key}'`);
      }
    }
    for (const [key, item] of Object.entries(v)) {
      const propSchema = props[key];
      if (isObject(propSchema) || typeof propSchema === 'boolean') {
        this.check(propSchema, item, `${path}.${key}`, depth + 1);
      } else if (node.additionalProperties === false) {
        this.errors.push(`${path}: unexpected property '${key}'`);
      } else if (isObject(node.additionalProperties)) {
        this.check(node.additionalProperties, item, `${path}.${key}`, depth + 1);
      }
    }
  }
}

// Sub-schema checks (anyOf/oneOf) must resolve $ref against the root, not against the sub-schema.
function validateJsonSchemaNode(
  root: JsonSchema,
  node: JsonSchema | boolean,
  value: Json,
): string[] {
  if (typeof node === 'boolean') return node ? [] : ['$: no value is allowed here'];
  const defs = root.$defs;
  const withDefs: JsonSchema =
    isObject(defs) && !('$defs' in node) ? { ...node, $defs: defs } : node;
  return validateJsonSchema(withDefs, value);
}

/** Stable, key-order-independent JSON text: used to compare observations and states. */
export function canonicalJson(value: Json): string {
  return canonical(value);
}
