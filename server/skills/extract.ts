// Extractor dispatch: `heuristic` (offline, trajectory statistics) or `llm` (OpenAI-compatible).
import { extractHeuristic } from './heuristic.ts';
import { extractWithLlm, type LlmSettings } from './llm.ts';
import type { EpisodeDigest, SkillDraft } from './types.ts';

export const EXTRACTORS = ['heuristic', 'llm'] as const;
export type ExtractorName = (typeof EXTRACTORS)[number];

export async function extractSkills(
  name: ExtractorName,
  digests: EpisodeDigest[],
  llm?: LlmSettings,
): Promise<SkillDraft[]> {
  return name === 'llm' ? extractWithLlm(digests, llm) : extractHeuristic(digests);
}
