// JSON values: what every JSON column, wire payload and state view holds.
import { z } from 'zod';
import type { Json, JsonObject } from '../bridges/core/types.ts';

export type { Json, JsonObject };

export const JsonSchemaZ: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonSchemaZ),
    z.record(z.string(), JsonSchemaZ),
  ]),
);

export const JsonObjectSchema: z.ZodType<JsonObject> = z.record(z.string(), JsonSchemaZ);

/**
 * Objects and arrays nested deeper than this are refused before any recursive parse: the schemas of
 * recursive shapes (JSON, harness stacks) recurse per level, and a 20,000-deep value would overflow
 * the stack (a 500 on the API, "Maximum call stack" in the CLI) instead of getting an answer.
 */
export const MAX_JSON_DEPTH = 100;

/** True when `value` nests objects or arrays more than `max` levels deep; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export const TOO_DEEP_MESSAGE = `is nested deeper than ${MAX_JSON_DEPTH} levels`;
