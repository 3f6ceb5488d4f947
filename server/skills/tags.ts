// Skills reach scripted policies as the documented skill tags (server/policies/README.md) and search
// priors. A skill carries a tag only when its text states the behaviour the tag switches on, so the
// mapping serves skills from any extractor (heuristic, LLM, hand-written) and any policy.
import { SKILL_TAGS, type SkillTag } from '../policies/skills.ts';
import type { Skill } from './types.ts';

type Rule = { tag: SkillTag; all: RegExp[] };

// Each rule lists what the text must say (every pattern must match somewhere in it).
const RULES: Rule[] = [
  {
    tag: 'open-closed-receptacles',
    all: [/\bopen(?:s|ing)?\b/i, /\bclosed\b/i],
  },
  {
    tag: 'verify-state-before-placing',
    all: [
      /\b(?:examine|verify|check|confirm)\b|\bbefore (?:placing|putting|moving)\b/i,
      /\b(?:clean(?:ed)?|heat(?:ed)?|hot|cool(?:ed)?|cold|state)\b/i,
    ],
  },
  {
    tag: 'avoid-repeating-failed-actions',
    all: [
      /nothing happens|failed (?:command|action)|did nothing/i,
      /\b(?:repeat|retry|again|same command)\b/i,
    ],
  },
  {
    tag: 'lookahead-search',
    all: [
      /\b(?:sequence|sequences|lookahead|look ahead|whole)\b/i,
      /\b(?:move|moves|operation)\b/i,
    ],
  },
];

/** The skill tags a skill's text supports. */
export function tagsOf(skill: Pick<Skill, 'title' | 'description' | 'content'>): SkillTag[] {
  const text = `${skill.title}\n${skill.description}\n${skill.content}`;
  return RULES.filter((r) => r.all.every((re) => re.test(text))).map((r) => r.tag);
}

/**
 * Search priors written in a skill: lines `Search order for <object>: <r1> > <r2> > …`
 * (what the heuristic extractor writes and the LLM extractor is asked to write).
 */
export function priorsOf(skill: Pick<Skill, 'content'>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const re = /search order for ([a-z][a-z ]*?)\s*:\s*([a-z][a-z >,]*)/gi;
  for (const m of skill.content.matchAll(re)) {
    const object = (m[1] ?? '').replace(/\s+/g, '').toLowerCase();
    const places = (m[2] ?? '')
      .split(/\s*[>,]\s*/)
      .map((p) => p.trim().replace(/\s+/g, '').toLowerCase())
      .filter((p) => p.length > 0);
    if (object && places.length > 0)
      out[object] = [...new Set([...(out[object] ?? []), ...places])];
  }
  return out;
}

/** Policy options a scripted policy understands, from a set of retrieved skills. */
export function policyOptionsFromSkills(
  skills: Pick<Skill, 'title' | 'description' | 'content'>[],
): { skills: string[]; searchPriors: Record<string, string[]> } {
  const tags = new Set<string>();
  const priors: Record<string, string[]> = {};
  for (const s of skills) {
    for (const t of tagsOf(s)) tags.add(t);
    for (const [o, places] of Object.entries(priorsOf(s))) {
      priors[o] = [...new Set([...(priors[o] ?? []), ...places])];
    }
  }
  return { skills: [...tags].sort(), searchPriors: priors };
}

export const TAG_DESCRIPTIONS = SKILL_TAGS;
