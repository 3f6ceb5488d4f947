// The skill-tag vocabulary scripted policies understand (EvoHarness hands them over through
// PolicyContext.options.skills). A tag switches on a behaviour that repairs a documented weakness;
// tags a policy does not know are ignored, so the same skill bank can be given to any policy.
import type { PolicyContext } from './types.ts';

export const SKILL_TAGS = {
  'open-closed-receptacles':
    'Open a closed receptacle before concluding the target is not there; open it before placing into it.',
  'verify-state-before-placing':
    'Before placing, examine the held object and clean / heat / cool it when the goal asks for that state.',
  'avoid-repeating-failed-actions':
    'After "Nothing happens." do not retry the same command; remember it failed and try something else.',
  'lookahead-search':
    'Search over whole sequences of moves instead of judging one move at a time (fractions and large intermediates included).',
} as const;

export type SkillTag = keyof typeof SKILL_TAGS;

export function isSkillTag(tag: string): tag is SkillTag {
  return Object.hasOwn(SKILL_TAGS, tag);
}

/** The known skill tags in the context's options (unknown tags dropped). */
export function skillsOf(context: Pick<PolicyContext, 'options'>): Set<SkillTag> {
  const raw = context.options?.skills;
  const out = new Set<SkillTag>();
  if (Array.isArray(raw)) {
    for (const tag of raw) if (typeof tag === 'string' && isSkillTag(tag)) out.add(tag);
  }
  return out;
}
