// Skill shapes shared by the skill bank, the extractors, the comparison and the bpe experience store.
// ReasoningBank-style items in the EvoHarness layout (PAPERS.md §2): general skills, task-specific
// skills, common mistakes, search priors.
import type { Skill, SkillCategory } from '../../contracts/skills.ts';

export {
  SKILL_CATEGORIES,
  type Skill,
  type SkillCategory,
  SkillSchema,
} from '../../contracts/skills.ts';

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
