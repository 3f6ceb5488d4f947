// Which skills a policy gets for one task, and the seeded task samples the comparison draws.
import type { Json, TaskInfo } from '../../bridges/core/types.ts';
import { parseBpeId } from '../policies/bpe/index.ts';
import { retrieve } from './retrieve.ts';
import { policyOptionsFromSkills } from './tags.ts';
import type { Skill } from './types.ts';

/** A seeded, order-independent sample of `n` tasks (0: all). */
export function sampleTasks(tasks: TaskInfo[], n: number, seed: number): TaskInfo[] {
  const keyed = tasks.map((t) => ({ t, k: hash(`${seed}:${t.id}`) }));
  keyed.sort((a, b) => a.k - b.k || a.t.id.localeCompare(b.t.id));
  const out = keyed.map((x) => x.t);
  return n > 0 ? out.slice(0, n) : out;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i += 1) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Policy options that give `skills` to the policy for one task. */
export function skilledOptions(
  policy: string,
  skills: Skill[],
  task: TaskInfo,
  topK: number,
): Record<string, Json> {
  if (skills.length === 0) return {};
  if (parseBpeId(policy)) return { experience: skills as unknown as Json };
  const hits = retrieve(skills, task.goal, { k: topK, taskType: task.type }).map((h) => h.skill);
  const o = policyOptionsFromSkills(hits);
  return {
    skills: o.skills,
    searchPriors: o.searchPriors,
    skillText: hits.map((h) => `${h.title}: ${h.content}`),
  };
}

export interface TypeStats {
  n: number;
  successes: number;
  meanSteps: number;
}

/** Success and mean steps per task type, over scored (not errored) episodes. */
export function statsByTaskType(
  results: { task: TaskInfo; r: { outcome: string; steps: number } }[],
): Record<string, TypeStats> {
  const out: Record<string, TypeStats> = {};
  for (const x of results) {
    if (x.r.outcome === 'error') continue;
    const e = out[x.task.type] ?? { n: 0, successes: 0, meanSteps: 0 };
    e.meanSteps = (e.meanSteps * e.n + x.r.steps) / (e.n + 1);
    e.n += 1;
    if (x.r.outcome === 'success') e.successes += 1;
    out[x.task.type] = e;
  }
  return out;
}
