// OpenEnv's wire shapes (meta-pytorch/OpenEnv src/openenv/core/env_server/types.py and
// serialization.py), as zod schemas: a server that answers otherwise fails with an EnvInfraError that
// names the route and the field, never deep inside an agent.
import { z } from 'zod';
import type { Json } from '../core/types.ts';

export const JsonZ: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonZ),
    z.record(z.string(), JsonZ),
  ]),
);
export const JsonObjectZ = z.record(z.string(), JsonZ);

/**
 * An object straight from JSON.parse: every value is JSON already, so only the top level is checked
 * (a deep JsonZ walk of every observation and state dict cost more than the round trip itself).
 */
const ParsedObjectZ = z.record(z.string(), z.unknown()) as unknown as z.ZodType<
  z.infer<typeof JsonObjectZ>
>;

/** WSErrorCode (types.py). */
export const WS_ERROR_CODES = [
  'INVALID_JSON',
  'UNKNOWN_TYPE',
  'VALIDATION_ERROR',
  'EXECUTION_ERROR',
  'CAPACITY_REACHED',
  'FACTORY_ERROR',
  'SESSION_ERROR',
] as const;
export type WSErrorCode = (typeof WS_ERROR_CODES)[number];

/** HealthResponse: `healthy`, `unhealthy` or `degraded`. */
export const HealthReplyZ = z.object({ status: z.string() });

/** SchemaResponse: JSON Schemas of the action, the observation and the state. */
export const SchemaReplyZ = z.object({
  action: ParsedObjectZ,
  observation: ParsedObjectZ,
  state: ParsedObjectZ,
});
export type SchemaReply = z.infer<typeof SchemaReplyZ>;

/** EnvironmentMetadata (optional route: older servers have none). */
export const MetadataReplyZ = z.object({
  name: z.string().optional(),
  description: z.string().nullish(),
  version: z.string().nullish(),
});

/** serialize_observation(): the observation's own fields, reward and done promoted beside it. */
export const SerializedObservationZ = z.object({
  observation: ParsedObjectZ,
  reward: z.union([z.number(), z.boolean()]).nullish(),
  done: z.boolean().default(false),
  metadata: ParsedObjectZ.nullish(),
});
export type SerializedObservation = z.infer<typeof SerializedObservationZ>;

/** WSObservationResponse | WSStateResponse | WSErrorResponse. */
export const WSReplyZ = z.discriminatedUnion('type', [
  z.object({ type: z.literal('observation'), data: SerializedObservationZ }),
  z.object({ type: z.literal('state'), data: ParsedObjectZ }),
  z.object({
    type: z.literal('error'),
    data: z.looseObject({ message: z.string().default(''), code: z.string().default('') }),
  }),
]);
export type WSReply = z.infer<typeof WSReplyZ>;

/** What a client sends on `/ws` (WSResetMessage | WSStepMessage | WSStateMessage | WSCloseMessage). */
export const WSIncomingZ = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reset'), data: ParsedObjectZ.default({}) }).strict(),
  z.object({ type: z.literal('step'), data: ParsedObjectZ }).strict(),
  z.object({ type: z.literal('state') }).strict(),
  z.object({ type: z.literal('close') }).strict(),
]);
export type WSIncoming = z.infer<typeof WSIncomingZ>;

/** ResetRequest: `seed` (≥ 0) and `episode_id`, plus any keyword arguments of the env's reset. */
export const ResetDataZ = z.looseObject({
  seed: z.number().int().min(-2_147_483_648).max(2_147_483_647).nullish(),
  episode_id: z.string().max(255).nullish(),
  task_id: z.string().min(1).nullish(),
});

/** One pydantic-style validation error, as OpenEnv puts them in a VALIDATION_ERROR's `errors`. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: Json;
}
