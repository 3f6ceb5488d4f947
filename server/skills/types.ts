// Skill shapes shared by the skill bank, the extractors, the comparison and the bpe experience store.
// ReasoningBank-style items in the EvoHarness layout (PAPERS.md §2): general skills, task-specific
// skills, common mistakes, search priors.
import { z } from 'zod';

export const SKILL_CATEGORIES = ['general', 'task', 'mistake', 'prior'] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES)[number];

export const SkillSchema = z.object({
  id: z.string().min(1),
  category: z.enum(SKILL_CATEGORIES),
  /** Task type (family) for task-specific skills; null otherwise. */
  taskType: z.string().nullable().default(null),
  title: z.string().min(1).max(200),
  description: z.string().max(1000),
  content: z.string().min(1).max(4000),
  sourceEpisodeIds: z.array(z.string()).default([]),
  uses: z.number().int().min(0).default(0),
});
export type Skill = z.infer<typeof SkillSchema>;

/** A skill before it has an id (what extractors propose). */
export type SkillDraft = Omit<Skill, 'id' | 'uses'> & { uses?: number };

/** Per-category caps of a bank (consolidation never lets a category grow past its cap). */
export const DEFAULT_CATEGORY_CAPS: Record<SkillCategory, number> = {
  general: 8,
  task: 12,
  mistake: 10,
  prior: 24,
};

/** What an extractor needs of one finished episode. */
export interface EpisodeDigest {
  id: string;
  bridge: string;
  taskId: string;
  taskType: string;
  goal: string;
  success: boolean;
  steps: number;
  failureCategory?: string;
  /** One entry per agent step: the command text (text tool) or the tool call, and what was shown. */
  steps_: { command: string; observation: string; invalid: boolean; meta: boolean }[];
  /** The first observation (the room description). */
  initialObservation: string;
  /** Insights the agent queued with note[…] during the episode. */
  notes: string[];
}
