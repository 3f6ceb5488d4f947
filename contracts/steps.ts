// What a harnessed step looks like once recorded: raw vs filtered action and observation, and which
// layer changed what. Written by the engine, stored by the rollouts, read back (and parsed with
// these schemas) by the trajectory viewer, the CLI and EnvRigger.
import { z } from 'zod';
import type { Action, Json, Observation, StepInfo } from '../bridges/core/types.ts';

export type { Observation, StepInfo };

import { JsonObjectSchema, JsonSchemaZ } from './json.ts';
import type { StepLlm } from './llm.ts';
import { ActionSchema } from './spec.ts';

export const COMPONENT_KINDS = ['stage', 'contract', 'chain'] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

export const LAYER_CHANGE_KINDS = [
  'action',
  'blocked',
  'transition',
  'observation',
  'switch',
  'banner',
] as const;

/** One change a harness layer made during a step. `layer` is the node's path in the spec, e.g. `env`, `env.env`, `env.first`. */
export const LayerChangeSchema = z.object({
  layer: z.string(),
  component: z.enum(COMPONENT_KINDS),
  what: z.enum(LAYER_CHANGE_KINDS),
  before: JsonSchemaZ.optional(),
  after: JsonSchemaZ.optional(),
  note: z.string().optional(),
});
export type LayerChange = z.infer<typeof LayerChangeSchema>;
export const LayerChangesSchema = z.array(LayerChangeSchema);

/** A step's info: the environment's JSON, with the two fields the product reads typed. */
export const StepInfoSchema: z.ZodType<StepInfo> = JsonObjectSchema.and(
  z.object({
    invalid: z.boolean().optional(),
    admissibleCommands: z.array(z.string()).optional(),
  }),
) as z.ZodType<StepInfo>;

export const StoredActionSchema: z.ZodType<Action> = ActionSchema;

/**
 * One line for an action, as the trajectory viewer shows it and a diagnosis quotes it: a text
 * tool's one string as typed, other tools a compact call (`combine(a=4, op=+, b=3)`).
 */
export function actionLine(action: Action): string {
  const values = Object.values(action.args);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  const args = Object.entries(action.args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return `${action.name}(${args})`;
}

export interface StepRecord {
  /** 0-based agent step. Stage set-up steps are never recorded as agent steps. */
  index: number;
  /** The action as the agent emitted it. */
  action: Action;
  /** The action that reached the base environment after every filter; null when a layer blocked it. */
  executedAction: Action | null;
  /** What the base environment returned, before any filter; null when blocked. */
  rawObservation: Observation | null;
  /** What the agent was shown. */
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
  invalid: boolean;
  blocked?: string;
  changes: LayerChange[];
  /** Chain leg (0-based) that handled the step, when the stack has a chain. */
  leg?: number;
  /** The state view after the step, when recorded. */
  state?: Json;
  /** EvoHarness meta-action bookkeeping (bpe policies), when any. */
  meta?: Json;
  /** An LLM policy's tokens, reasoning and reply text for the step (contracts/llm.ts), when any. */
  llm?: StepLlm;
}

/**
 * Observation data conventions the trajectory viewer reads (bridges fill them; the shapes are
 * checked here on read): page references of document bridges (officeqa: the pages a search or read
 * showed) and the location of browser bridges (webarena: URL and open tabs).
 */
export const PageRefsDataSchema = z.object({
  refs: z.array(z.object({ document: z.string(), page: z.number().int() })).min(1),
});
export const BrowserDataSchema = z.object({
  url: z.string(),
  tabs: z.array(z.object({ url: z.string(), title: z.string() })),
  activeTab: z.number().int().optional(),
  truncated: z.boolean().optional(),
  tokens: z.number().optional(),
});
export type PageRefsData = z.infer<typeof PageRefsDataSchema>;
export type BrowserData = z.infer<typeof BrowserDataSchema>;

/** A step's screenshot, rebuilt by replay (`runs.screenshotAt`). */
export const ScreenshotSchema = z.object({ mimeType: z.string(), data: z.string() });
export type StepScreenshot = z.infer<typeof ScreenshotSchema>;
