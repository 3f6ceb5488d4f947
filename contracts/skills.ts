// Skills (EvoHarness experience, ReasoningBank-style) and the skill-source comparison's rows, as the
// studio, the CLI and the store see them (PAPERS.md §2). The skill categories, edit ops and bank
// sources are database enums too (server/db/contracts.test.ts keeps them equal).
import { z } from 'zod';
import { HarnessSpecSchema } from './spec.ts';

export const SKILL_CATEGORIES = ['general', 'task', 'mistake', 'prior'] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES)[number];
export const SkillCategorySchema = z.enum(SKILL_CATEGORIES);

export const SkillSchema = z.object({
  id: z.string().min(1),
  category: SkillCategorySchema,
  /** Task type (family) for task-specific skills; null otherwise. */
  taskType: z.string().nullable().default(null),
  title: z.string().min(1).max(200),
  description: z.string().max(1000),
  content: z.string().min(1).max(4000),
  sourceEpisodeIds: z.array(z.string()).default([]),
  uses: z.number().int().min(0).default(0),
});
export type Skill = z.infer<typeof SkillSchema>;

export const SKILL_EDIT_OPS = ['add', 'update', 'merge', 'delete'] as const;
export type SkillEditOp = (typeof SKILL_EDIT_OPS)[number];
export const SkillEditOpSchema = z.enum(SKILL_EDIT_OPS);

/** The skill sources the comparison measures: no skills, skills of original episodes, of EnvHarness ones. */
export const SKILL_SOURCES = ['none', 'original', 'envharness'] as const;
export type SkillSource = (typeof SKILL_SOURCES)[number];

/**
 * Where a stored bank's skills came from (SkillBank.source): the comparison's original or EnvHarness
 * episodes (its 'none' source has no bank), one recorded run, or a person.
 */
export const SKILL_BANK_SOURCES = ['original', 'envharness', 'run', 'manual'] as const;
export type SkillBankSource = (typeof SKILL_BANK_SOURCES)[number];
export const SkillBankSourceSchema = z.enum(SKILL_BANK_SOURCES);

/** One row of the comparison: a skill source, its bank, and how the skilled policy did on held-out tasks. */
export const SourceRowSchema = z.object({
  source: z.enum(SKILL_SOURCES),
  bankId: z.string().nullable(),
  skills: z.number().int(),
  trainEpisodes: z.number().int(),
  trainSuccessRate: z.number().nullable(),
  n: z.number().int(),
  successes: z.number().int(),
  successRate: z.number(),
  interval: z.tuple([z.number(), z.number()]),
  meanSteps: z.number(),
  meanStepsSuccess: z.number().nullable(),
  perType: z.record(
    z.string(),
    z.object({ n: z.number().int(), successes: z.number().int(), meanSteps: z.number() }),
  ),
  errors: z.number().int(),
});
export type SourceRow = z.infer<typeof SourceRowSchema>;

/** What (c) trained on, per training task: the accepted harness (or none) and why. */
export const EnvharnessChoiceSchema = z.object({
  taskId: z.string(),
  spec: HarnessSpecSchema.nullable(),
  direction: z.string().optional(),
  rationale: z.string(),
  via: z.string(),
});

/** A stored comparison's results. */
export const ComparisonResultsSchema = z.object({
  rows: z.array(SourceRowSchema),
  trainTasks: z.array(z.string()),
  evalTasks: z.array(z.string()),
  envharness: z.array(EnvharnessChoiceSchema),
  durationMs: z.number(),
});
export type ComparisonResults = z.infer<typeof ComparisonResultsSchema>;
