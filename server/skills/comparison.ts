// The skill-source comparison's input and result shapes (run by compare.ts, stored by store.ts).
import { z } from 'zod';
import type { Skill, SkillSource, SourceRow } from '../../contracts/skills.ts';
import type { HarnessSpec } from '../harness/spec.ts';

export { SKILL_SOURCES, type SkillSource, type SourceRow } from '../../contracts/skills.ts';

export const CompareInputSchema = z.object({
  bridge: z.string().min(1),
  policy: z.string().min(1),
  trainSplit: z.string().default('train'),
  evalSplit: z.string().default('eval_unseen'),
  /** Training environments per source. */
  envs: z.number().int().min(1).max(500).default(8),
  /** Held-out tasks to evaluate on (a seeded sample of the eval split); 0 = the whole split. */
  evalEnvs: z.number().int().min(0).max(5000).default(24),
  seed: z.number().int().min(0).default(0),
  maxSteps: z.number().int().min(1).max(1000).default(50),
  extractor: z.enum(['heuristic', 'llm']).default('heuristic'),
  /** How (c)'s environments are made: EnvRigger (heuristic designer) or its templates directly. */
  envharness: z.enum(['rigger', 'templates']).default('templates'),
  /** EnvRigger settings when envharness = rigger. */
  rigK: z.number().int().min(1).max(20).default(3),
  rigIterations: z.number().int().min(1).max(10).default(2),
  /** Template candidates: fresh rollouts per candidate and the success band a candidate must hit. */
  validateK: z.number().int().min(1).max(50).default(4),
  band: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]).default([0.25, 0.75]),
  /** Retrieved skills per episode for a policy without a workspace. */
  topK: z.number().int().min(1).max(20).default(5),
  llm: z
    .object({
      baseUrl: z.string().optional(),
      apiKey: z.string().optional(),
      model: z.string().optional(),
    })
    .optional(),
  persist: z.boolean().default(true),
  /** Team mode: the project the persisted comparison, banks and runs belong to. */
  projectId: z.string().optional(),
});
export type CompareInput = z.input<typeof CompareInputSchema>;

export interface CompareResult {
  id: string | null;
  input: z.output<typeof CompareInputSchema>;
  trainTasks: string[];
  evalTasks: string[];
  /** What (c) trained on, per training task. */
  envharness: {
    taskId: string;
    spec: HarnessSpec | null;
    direction?: string;
    rationale: string;
    via: string;
  }[];
  rows: SourceRow[];
  banks: Record<SkillSource, Skill[]>;
  durationMs: number;
}
