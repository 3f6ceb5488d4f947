// HarnessSpec: the versioned JSON form of a harness stack (a tree). Zod-validated; the committed
// JSON Schema (schemas/harness-spec.schema.json) is generated from HarnessSpecSchema.
import { z } from 'zod';

export const JsonSchemaZ: z.ZodType<import('../../bridges/core/types.ts').Json> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonSchemaZ),
    z.record(z.string(), JsonSchemaZ),
  ]),
);

export const ActionSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), JsonSchemaZ),
});

/** Hook code is limited so that a spec stays a spec (and a hostile one cannot flood the store). */
export const MAX_HOOK_CODE_CHARS = 64 * 1024;
export const MAX_STAGE_ACTIONS = 200;
export const MAX_SPEC_DEPTH = 16;

export const CHAIN_MODES = ['sequential', 'branch', 'switch', 'alternate'] as const;
export type ChainMode = (typeof CHAIN_MODES)[number];

export type BaseNode = { type: 'base'; bridge: string; task: string };
export type StageNode = {
  type: 'stage';
  actions: z.infer<typeof ActionSchema>[];
  env: HarnessNode;
};
export type ContractNode = { type: 'contract'; code: string; env: HarnessNode };
export type ChainNode = {
  type: 'chain';
  mode: ChainMode;
  first: HarnessNode;
  second: HarnessNode;
  remedial?: HarnessNode;
  /** `switch` mode: a JavaScript expression over `state` (the first leg's state view). */
  when?: string;
  /** Show a context banner to the agent when the episode switches legs. */
  carryContext?: boolean;
};
export type HarnessNode = BaseNode | StageNode | ContractNode | ChainNode;

export const BaseNodeSchema = z.strictObject({
  type: z.literal('base'),
  bridge: z.string().min(1),
  task: z.string().min(1),
});

export const HarnessNodeSchema: z.ZodType<HarnessNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    BaseNodeSchema,
    z.strictObject({
      type: z.literal('stage'),
      actions: z.array(ActionSchema).max(MAX_STAGE_ACTIONS),
      env: HarnessNodeSchema,
    }),
    z.strictObject({
      type: z.literal('contract'),
      code: z
        .string()
        .max(MAX_HOOK_CODE_CHARS, `hook code is limited to ${MAX_HOOK_CODE_CHARS} characters`),
      env: HarnessNodeSchema,
    }),
    z.strictObject({
      type: z.literal('chain'),
      mode: z.enum(CHAIN_MODES),
      first: HarnessNodeSchema,
      second: HarnessNodeSchema,
      remedial: HarnessNodeSchema.optional(),
      when: z.string().max(2000).optional(),
      carryContext: z.boolean().optional(),
    }),
  ]),
);

export const HarnessSpecSchema = z.strictObject({
  version: z.literal(1),
  env: HarnessNodeSchema,
});
export type HarnessSpec = z.infer<typeof HarnessSpecSchema>;
