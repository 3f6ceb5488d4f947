// The remote-environment protocol (README.md): zod schemas for every reply, so a server that speaks
// it wrongly fails with a clear EnvInfraError naming the route and the field, not deep in an agent.
import { z } from 'zod';
import type { Json } from '../core/types.ts';

export const PROTOCOL_VERSION = 1;

const JsonZ: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonZ),
    z.record(z.string(), JsonZ),
  ]),
);
const JsonObjectZ = z.record(z.string(), JsonZ);

export const ObservationZ = z.object({ text: z.string(), data: JsonZ.optional() });

export const StepInfoZ = JsonObjectZ.and(
  z.object({
    invalid: z.boolean().optional(),
    admissibleCommands: z.array(z.string()).optional(),
  }),
);

export const ToolSpecZ = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'tool names are 1-64 of [a-zA-Z0-9_-]'),
  description: z.string().min(1),
  parameters: JsonObjectZ,
});

export const TaskInfoZ = z.object({
  id: z.string().min(1),
  type: z.string(),
  goal: z.string().min(1),
  split: z.string(),
  difficulty: z.number().min(0).max(1).optional(),
  meta: JsonObjectZ.optional(),
});

export const HealthReplyZ = z.object({ status: z.literal('ok'), protocol: z.number().optional() });

export const SchemaReplyZ = z.object({
  protocol: z.number().int().optional(),
  name: z.string().min(1),
  description: z.string().default(''),
  splits: z.array(z.string()).min(1),
  textTool: z.object({ name: z.string(), arg: z.string() }).nullable().optional(),
  tools: z.array(ToolSpecZ).min(1),
  stateSchema: JsonObjectZ,
  tasks: z.array(TaskInfoZ).min(1),
});
export type SchemaReply = z.infer<typeof SchemaReplyZ>;

export const ResetReplyZ = z.object({
  episode_id: z.string().min(1),
  observation: ObservationZ,
  info: StepInfoZ.default({}),
  /** Optional: when absent the bridge asks GET /state. */
  state: JsonZ.optional(),
});

export const StepReplyZ = z.object({
  observation: ObservationZ,
  reward: z.number().finite(),
  terminated: z.boolean(),
  truncated: z.boolean().default(false),
  info: StepInfoZ.default({}),
  state: JsonZ.optional(),
});

export const StateReplyZ = z.object({ state: JsonZ, observation: ObservationZ.optional() });

export const EvaluateReplyZ = z.object({
  success: z.boolean(),
  score: z.number().finite(),
  metrics: z.record(z.string(), z.number().finite()).default({}),
});

export const ErrorReplyZ = z.object({ error: z.string() });

export const CloseReplyZ = z.object({ closed: z.boolean().optional() });

/** `POST /after_setup` (optional route): the server reset its counters after a Stage's set-up. */
export const AfterSetupReplyZ = z.object({ ok: z.boolean().optional() });
