// Rule-based diagnosis over trajectories only: what the agent typed and what it was shown. Nothing
// here looks at the policy's id, configuration or code — the designer is a black-box observer —
// nor at one benchmark's feedback text: a failed action is one the bridge marked invalid, and
// bridge-specific patterns come from the bridge's design module (design.ts).
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import type { StepRecord } from '../../../harness/types.ts';
import type {
  Axis,
  Batch,
  DiagnosisReport,
  Direction,
  Evidence,
  ObservedEpisode,
  RigConstraints,
} from '../../types.ts';
import type { BridgeDesign, Finding } from './design.ts';

/** The text an agent typed (text tools) or a compact rendering of a tool call. */
export function commandOf(step: StepRecord): string {
  const args = step.action.args;
  const first = Object.values(args)[0];
  if (Object.keys(args).length === 1 && typeof first === 'string')
    return first.trim().toLowerCase();
  return `${step.action.name} ${JSON.stringify(args)}`;
}

function failed(step: StepRecord): boolean {
  return step.invalid;
}

const failing = (b: Batch) => b.episodes.filter((e) => e.outcome === 'failure');

function loops(episodes: ObservedEpisode[]): Finding | undefined {
  const evidence: Evidence[] = [];
  let hit = 0;
  let repeats = 0;
  for (const e of episodes) {
    let found = false;
    const t = e.trajectory;
    for (let i = 0; i < t.length; ) {
      const s = t[i] as StepRecord;
      if (!failed(s)) {
        i++;
        continue;
      }
      let j = i + 1;
      while (
        j < t.length &&
        failed(t[j] as StepRecord) &&
        commandOf(t[j] as StepRecord) === commandOf(s)
      )
        j++;
      if (j - i >= 3) {
        found = true;
        repeats += j - i - 1;
        if (evidence.filter((x) => x.episodeId === e.episodeId).length < 2)
          evidence.push({
            episodeId: e.episodeId,
            step: i + 1,
            note: `"${commandOf(s)}" failed and was typed again ${j - i - 1} time(s)`,
          });
      }
      i = j;
    }
    if (found) hit++;
  }
  if (hit === 0) return undefined;
  return {
    axis: 'action',
    label: 'repeats-failed-actions',
    description: `The agent types a command again right after the environment rejected it, ${repeats} wasted step(s) in ${hit} failing episode(s): it burns its step budget in loops instead of trying something else.`,
    evidence,
    episodes: hit,
    rank: 1,
  };
}

function invalidStreaks(episodes: ObservedEpisode[]): Finding | undefined {
  const evidence: Evidence[] = [];
  let hit = 0;
  for (const e of episodes) {
    let run = 0;
    let start = 0;
    let found = false;
    e.trajectory.forEach((s, i) => {
      if (failed(s)) {
        if (run === 0) start = i;
        run++;
        if (run === 5 && !found) {
          found = true;
          evidence.push({
            episodeId: e.episodeId,
            step: start,
            note: '5+ failed actions in a row',
          });
        }
      } else run = 0;
    });
    if (found) hit++;
  }
  if (hit === 0) return undefined;
  return {
    axis: 'action',
    label: 'invalid-action-streak',
    description: `Long streaks of invalid or failing actions in ${hit} failing episode(s): the agent does not understand which actions are possible here.`,
    evidence,
    episodes: hit,
    rank: 3,
  };
}

function byCategory(
  episodes: ObservedEpisode[],
  category: string,
  axis: Axis,
  label: string,
  description: (n: number) => string,
  rank: number,
): Finding | undefined {
  const hits = episodes.filter((e) => e.failureCategory === category);
  if (hits.length === 0) return undefined;
  return {
    axis,
    label,
    description: description(hits.length),
    evidence: hits.map((e) => ({
      episodeId: e.episodeId,
      step: Math.max(0, e.trajectory.length - 1),
      note: category.replaceAll('_', ' '),
    })),
    episodes: hits.length,
    rank,
  };
}

export function findings(baseline: Batch, task: TaskInfo, design?: BridgeDesign): Finding[] {
  const fails = failing(baseline);
  const out = [
    ...(design?.findings?.(fails, task) ?? []),
    loops(fails),
    invalidStreaks(fails),
    byCategory(
      fails,
      'step_budget_exhausted',
      'start_state',
      'runs-out-of-steps',
      (n) =>
        `${n} episode(s) used the whole step budget without reaching the goal: from this start state the search is too long for the agent.`,
      5,
    ),
    byCategory(
      fails,
      'gave_up',
      'task_understanding',
      'gives-up-early',
      (n) =>
        `${n} episode(s) ended with the agent giving up before the budget ran out, with the goal not met.`,
      6,
    ),
    byCategory(
      fails,
      'wrong_final_state',
      'task_understanding',
      'wrong-final-state',
      (n) => `${n} episode(s) ended with the verifier rejecting the final state.`,
      7,
    ),
    byCategory(
      fails,
      'invalid_action_loop',
      'action',
      'invalid-action-loop',
      (n) => `${n} episode(s) ended in a loop of invalid actions.`,
      2,
    ),
  ].filter((f): f is Finding => f !== undefined);
  return out.sort((a, b) => b.episodes - a.episodes || a.rank - b.rank);
}

const DEFECT_HINTS: readonly (readonly [RegExp, string])[] = [
  [/repeat|loop|again|retr/i, 'repeats-failed-actions'],
  [/invalid|illegal/i, 'invalid-action-streak'],
  [/give[s]? up|quit|stop/i, 'gives-up-early'],
  [/budget|slow|steps|long/i, 'runs-out-of-steps'],
];

export function directionFor(rate: number | null, constraints: RigConstraints): Direction {
  if (rate === null) return 'scaffold';
  if (rate < constraints.band[0] - 1e-9) return 'scaffold';
  if (rate > constraints.band[1] + 1e-9) return 'harder';
  return 'none';
}

/** The diagnosis of a baseline; `design` adds the rig's bridge's own patterns and defect words. */
export function heuristicDiagnosis(
  baseline: Batch,
  task: TaskInfo,
  constraints: RigConstraints,
  design?: BridgeDesign,
): DiagnosisReport {
  const rate = baseline.stats.successRate;
  const direction = directionFor(rate, constraints);
  const all = findings(baseline, task, design);
  // A stated defect picks the matching finding when the trajectories show it.
  let main = all[0];
  if (constraints.defect) {
    const hints = [...(design?.defectHints ?? []), ...DEFECT_HINTS];
    const wanted = hints.find(([re]) => re.test(constraints.defect ?? ''))?.[1];
    main = all.find((f) => f.label === wanted) ?? main;
  }
  const secondary = all
    .filter((f) => f !== main)
    .map((f) => ({ axis: f.axis, label: f.label, description: f.description }));
  const pct = rate === null ? 'no scored episode' : `${Math.round(rate * 100)}% success`;
  if (!main) {
    const successes = baseline.episodes.filter((e) => e.outcome === 'success');
    return {
      axis: 'none',
      label: rate === 1 ? 'mastered' : 'no-failure-pattern',
      description:
        rate === 1
          ? `The policy solved all ${successes.length} baseline episodes (mean ${baseline.stats.meanSteps?.toFixed(1) ?? '?'} steps): the task no longer teaches it anything. Direction: a harder variant that stays solvable.`
          : `Baseline ${pct}; no recurring failure pattern in the trajectories.${direction === 'none' ? ' The task is already challenging but solvable.' : ''}`,
      evidence: successes.slice(0, 5).map((e) => ({
        episodeId: e.episodeId,
        step: Math.max(0, e.trajectory.length - 1),
        note: `solved in ${e.steps} steps`,
      })),
      direction,
      ...(secondary.length ? { secondary } : {}),
    };
  }
  const dirText =
    direction === 'scaffold'
      ? 'Direction: scaffold (pre-complete steps or add feedback) until it is challenging but solvable.'
      : direction === 'harder'
        ? 'Direction: a harder variant that stays solvable.'
        : 'The success rate is already in the band.';
  return {
    axis: main.axis,
    label: main.label,
    description: `Baseline ${pct}. ${main.description} ${dirText}`,
    evidence: main.evidence.slice(0, 12),
    direction,
    ...(secondary.length ? { secondary } : {}),
  };
}
