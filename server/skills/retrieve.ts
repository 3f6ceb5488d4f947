// Top-k retrieval with diversity (maximal marginal relevance over word sets): a query returns the
// most relevant skills without k near-copies of one lesson, and no category fills the whole list.
import type { Skill } from './types.ts';

const STOP = new Set(
  'a an the and or of to in on at for with from some it its is are be this that then your you task put find two'.split(
    ' ',
  ),
);

export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (w.length < 2 || STOP.has(w)) continue;
    out.add(w.replace(/(?:ing|ed|es|s)$/, '') || w);
  }
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter += 1;
  return inter / (a.size + b.size - inter);
}

export interface RetrieveOptions {
  k?: number;
  /** Task type of the episode: task-specific skills of that type rank first. */
  taskType?: string;
  /** 0 = pure relevance, 1 = pure novelty. */
  diversity?: number;
}

export interface Retrieved {
  skill: Skill;
  score: number;
}

function relevance(q: Set<string>, skill: Skill, taskType?: string): number {
  const text = words(`${skill.title} ${skill.description} ${skill.content}`);
  let hits = 0;
  for (const w of q) if (text.has(w)) hits += 1;
  let score = q.size === 0 ? 0 : hits / q.size;
  if (skill.category === 'task') {
    if (taskType && skill.taskType === taskType) score += 1;
    else if (skill.taskType) score -= 0.5;
  }
  // General skills and common mistakes are mechanisms, not facts about one goal: they rarely share
  // words with a goal sentence, so they keep a base score and compete on relevance above it.
  if (skill.category === 'general') score += 0.3;
  if (skill.category === 'mistake') score += 0.2;
  // A little weight on skills that have been useful before; never enough to beat relevance.
  return score + Math.min(skill.uses, 20) * 0.005;
}

export function retrieve(skills: Skill[], query: string, o: RetrieveOptions = {}): Retrieved[] {
  const k = o.k ?? 5;
  const lambda = 1 - (o.diversity ?? 0.5);
  const q = words(query);
  const pool = skills
    .map((skill) => ({
      skill,
      score: relevance(q, skill, o.taskType),
      bag: words(`${skill.title} ${skill.content}`),
    }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.skill.id.localeCompare(b.skill.id));
  const chosen: typeof pool = [];
  const perCategory = new Map<string, number>();
  const categoryCap = Math.max(1, Math.ceil(k / 2));
  while (chosen.length < k && pool.length > 0) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i += 1) {
      const c = pool[i];
      if (!c) continue;
      if ((perCategory.get(c.skill.category) ?? 0) >= categoryCap) continue;
      const redundancy = Math.max(0, ...chosen.map((s) => jaccard(s.bag, c.bag)));
      const value = lambda * c.score - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    const [picked] = pool.splice(best, 1);
    if (!picked) break;
    chosen.push(picked);
    perCategory.set(picked.skill.category, (perCategory.get(picked.skill.category) ?? 0) + 1);
  }
  return chosen.map(({ skill, score }) => ({ skill, score }));
}
