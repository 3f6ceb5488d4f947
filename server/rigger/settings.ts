// What a rig is asked to do, and how those settings live on its Rig row: the columns hold the
// task, policy, designer, K and limits; `constraints` (JSON, parsed here on read) holds the rest —
// bands, defect, seeds, scene, step budget, policy options, concurrency and the queue of its job.
// A rig job is therefore only its id: any process can rebuild the settings from the row.
import { z } from 'zod';
import type { Json } from '../../bridges/core/types.ts';
import { BandSchema, type RigInput, RigInputSchema } from '../../contracts/launch.ts';
import {
  COMPONENTS,
  ComponentsSchema,
  DESIGNERS,
  type DesignerName,
  defaultDesigner,
} from '../../contracts/rigs.ts';
import { parseInput } from '../errors.ts';

// The rig launch input is a contract: the studio's rig form validates with the same schema.
export { type RigInput, RigInputSchema };

/** Whether the launch named the designer, or the policy decided it (contracts/rigs.ts). */
export type DesignerChoice = 'chosen' | 'default';

/** A rig's settings: the parsed launch input, its designer resolved (which, on what model, why). */
export type RigSettings = Omit<z.output<typeof RigInputSchema>, 'designer'> & {
  designer: DesignerName;
  designerChoice: DesignerChoice;
  /** The llm designer's model: the policy's own when the policy chose it. */
  designerModel?: string;
};

/** The designer in use and why, in words (the rig page, the calibration report). */
export function designerWhy(s: Pick<RigSettings, 'designerChoice' | 'policy'>): string {
  return s.designerChoice === 'chosen' ? 'chosen at launch' : defaultDesigner(s.policy).why;
}

export type RigQueueKind = 'local' | 'bullmq';

/** `Rig.constraints`: the settings that have no column. Rows written before rigs were jobs lack
 * `queue`, `concurrency` and `policyOptions`; they ran in the studio process, hence `local`. */
export const StoredRigSettingsSchema = z.object({
  band: BandSchema,
  /** Rows written before components existed let the loop write any of them. */
  components: ComponentsSchema.default([...COMPONENTS]),
  /** Rows written before this was recorded had their designer named at launch. */
  designerChoice: z.enum(['chosen', 'default']).default('chosen'),
  designerModel: z.string().optional(),
  stepsBand: BandSchema.optional(),
  defect: z.string().optional(),
  seed: z.number().int().default(0),
  scene: z.number().int().default(0),
  maxSteps: z.number().int().default(50),
  concurrency: z.number().int().optional(),
  policyOptions: z.record(z.string(), z.unknown()).optional(),
  queue: z.enum(['local', 'bullmq']).default('local'),
  /** The lint gate: stored only when switched off (absent: on). */
  lint: z.boolean().optional(),
});
export type StoredRigSettings = z.output<typeof StoredRigSettingsSchema>;

export function parseRigInput(raw: RigInput): RigSettings {
  const input = parseInput(RigInputSchema, raw);
  if (input.designer !== undefined)
    return { ...input, designer: input.designer, designerChoice: 'chosen' };
  const d = defaultDesigner(input.policy);
  return {
    ...input,
    designer: d.designer,
    designerChoice: 'default',
    ...(d.model ? { designerModel: d.model } : {}),
  };
}

export function storedSettings(input: RigSettings, queue: RigQueueKind): StoredRigSettings {
  return {
    band: input.band,
    components: input.components,
    designerChoice: input.designerChoice,
    ...(input.designerModel ? { designerModel: input.designerModel } : {}),
    ...(input.stepsBand ? { stepsBand: input.stepsBand } : {}),
    ...(input.defect ? { defect: input.defect } : {}),
    seed: input.seed,
    scene: input.scene,
    maxSteps: input.maxSteps,
    ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
    ...(input.policyOptions ? { policyOptions: input.policyOptions } : {}),
    ...(input.lint === false ? { lint: false } : {}),
    queue,
  };
}

export interface RigRowSettings {
  bridge: string;
  taskId: string;
  policy: string;
  designer: string;
  k: number;
  maxIterations: number;
  rounds: number;
  constraints: unknown;
  createdBy: string | null;
  projectId: string | null;
}

/** The settings a rig was created with, read back from its row. */
export function settingsOfRow(row: RigRowSettings): RigSettings & { queue: RigQueueKind } {
  const stored = StoredRigSettingsSchema.parse(row.constraints);
  const { queue, designerChoice, designerModel, ...rest } = stored;
  const parsed = parseRigInput({
    ...rest,
    // The task id on the row is already pinned; pinning it again leaves it as it is.
    task: `${row.bridge}:${row.taskId}`,
    policy: row.policy,
    designer: z.enum(DESIGNERS).parse(row.designer),
    k: row.k,
    maxIterations: row.maxIterations,
    rounds: row.rounds,
    ...(row.createdBy ? { createdBy: row.createdBy } : {}),
    ...(row.projectId ? { projectId: row.projectId } : {}),
  });
  const input: RigSettings = {
    ...parsed,
    designerChoice,
    ...(designerModel ? { designerModel } : {}),
  };
  return { ...input, queue };
}

/** The options every rollout of a round carries: the rig's own plus the skills of earlier rounds. */
export function roundPolicyOptions(
  input: RigSettings,
  skills: string[],
): Record<string, Json> | undefined {
  if (skills.length === 0 && !input.policyOptions) return undefined;
  return {
    ...((input.policyOptions ?? {}) as Record<string, Json>),
    ...(skills.length ? { skills } : {}),
  };
}
