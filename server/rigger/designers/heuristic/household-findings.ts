// Household failure patterns (ALFWorld's feedback text and task metadata): closed receptacles
// walked past, and a goal object placed without the transformation the goal asks for.
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import type { Evidence, ObservedEpisode } from '../../types.ts';
import type { Finding } from './design.ts';
import { commandOf } from './diagnose.ts';

export function objectWordOf(task: TaskInfo): string | undefined {
  const t = task.meta?.objectType;
  return typeof t === 'string' ? t.toLowerCase() : undefined;
}

/** Closed receptacles seen, never an `open`, and the goal object never in sight. */
function neverOpens(
  episodes: ObservedEpisode[],
  objectWord: string | undefined,
): Finding | undefined {
  const evidence: Evidence[] = [];
  let hit = 0;
  for (const e of episodes) {
    const typed = e.trajectory.map(commandOf);
    if (typed.some((c) => c.startsWith('open '))) continue;
    const closed = e.trajectory
      .map((s, i) => ({ i, m: /the ([a-z]+ \d+) is closed\./i.exec(s.observation.text) }))
      .filter((x) => x.m);
    if (closed.length === 0) continue;
    const seen =
      objectWord !== undefined &&
      e.trajectory.some((s) =>
        new RegExp(`\\b(a|an) ${objectWord} \\d+`, 'i').test(s.observation.text),
      );
    if (seen && e.failureCategory !== 'gave_up' && e.failureCategory !== 'step_budget_exhausted')
      continue;
    hit++;
    for (const c of closed.slice(0, 2))
      evidence.push({
        episodeId: e.episodeId,
        step: c.i,
        note: `saw "${c.m?.[0]}" and never opened it`,
      });
  }
  if (hit === 0) return undefined;
  return {
    axis: 'action',
    label: 'never-opens-closed-receptacles',
    description: `In ${hit} failing episode(s) the agent walked past closed receptacles ("The … is closed.") without ever typing \`open\`${objectWord ? `, and never saw a ${objectWord}` : ''}: what is inside closed receptacles stays out of its reach.`,
    evidence,
    episodes: hit,
    rank: 0,
  };
}

/** The goal object was placed without the state change the goal asks for. */
function skipsTransform(
  episodes: ObservedEpisode[],
  task: TaskInfo,
  objectWord: string | undefined,
): Finding | undefined {
  const need = /\b(clean|hot|heat|cool)\b/i.exec(task.goal)?.[1]?.toLowerCase();
  if (!need || !objectWord) return undefined;
  const verb = need === 'hot' ? 'heat' : need;
  const evidence: Evidence[] = [];
  let hit = 0;
  for (const e of episodes) {
    const done = new Set<string>();
    let found = false;
    e.trajectory.forEach((s, i) => {
      const t = s.observation.text;
      const changed = new RegExp(`you ${verb} the (${objectWord} \\d+)`, 'i').exec(t)?.[1];
      if (changed) done.add(changed.toLowerCase());
      const placed = new RegExp(`you (?:move|put) the (${objectWord} \\d+) (?:to|in|on)`, 'i').exec(
        t,
      )?.[1];
      if (placed && !done.has(placed.toLowerCase()) && !found) {
        found = true;
        evidence.push({
          episodeId: e.episodeId,
          step: i,
          note: `placed the ${placed} without a "${verb}" step first`,
        });
      }
    });
    if (found) hit++;
  }
  if (hit === 0) return undefined;
  return {
    axis: 'task_understanding',
    label: 'skips-required-transformation',
    description: `The goal asks for a ${need} ${objectWord}, but in ${hit} failing episode(s) the agent placed it without ever using the ${verb} action: it ignores the state the goal requires.`,
    evidence,
    episodes: hit,
    rank: 0,
  };
}

/** Defect words that point at a household finding. */
export const HOUSEHOLD_DEFECT_HINTS = [
  [/\bopen|closed|inside|drawer|cabinet/i, 'never-opens-closed-receptacles'],
  [/clean|heat|hot|cool|state|transform|verif/i, 'skips-required-transformation'],
] as const satisfies readonly (readonly [RegExp, string])[];

export function householdFindings(
  failing: ObservedEpisode[],
  task: TaskInfo,
): (Finding | undefined)[] {
  const word = objectWordOf(task);
  return [neverOpens(failing, word), skipsTransform(failing, task, word)];
}
