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
