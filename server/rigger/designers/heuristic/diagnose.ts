// Rule-based diagnosis over trajectories only: what the agent typed and what it was shown. Nothing
// here looks at the policy's id, configuration or code — the designer is a black-box observer —
// nor at one benchmark's feedback text: a failed action is one the bridge marked invalid, and
// bridge-specific patterns come from the bridge's design module (design.ts). Every number and
// every quote in a description is measured on the trajectories; the checker (diagnosis-check.ts)
// proves the quotes and the negative claims before the diagnosis is stored.
import type { TaskInfo } from '../../../../bridges/core/types.ts';
import type { StepRecord } from '../../../harness/types.ts';
import { actionText, excerpt } from '../../diagnosis-check.ts';
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

/** The text an agent typed (text tools) or a compact rendering of a tool call, lower-cased to compare. */
export function commandOf(step: StepRecord): string {
  return actionText(step.action).trim().toLowerCase();
}

/** Evidence at a step, quoting what the agent typed there. */
export function typedAt(episode: ObservedEpisode, step: StepRecord, note: string): Evidence {
  const typed = actionText(step.action).trim();
  return { episodeId: episode.episodeId, step: step.index, quote: typed.slice(0, 160), note };
}

/** Evidence at a step, quoting what the agent was shown there (or what it typed, when shown nothing). */
export function shownAt(episode: ObservedEpisode, step: StepRecord, note: string): Evidence {
  const shown = excerpt(step.observation.text);
  return shown
    ? { episodeId: episode.episodeId, step: step.index, quote: shown, note }
    : typedAt(episode, step, note);
}

/** Up to `max` items, taking each group's first, then each group's second…: every group is cited. */
export function interleave<T>(groups: T[][], max: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < max && groups.some((g) => i < g.length); i++)
    for (const g of groups) {
      const item = g[i];
      if (item !== undefined && out.length < max) out.push(item);
    }
  return out;
}

function failed(step: StepRecord): boolean {
  return step.invalid;
}

const failing = (b: Batch) => b.episodes.filter((e) => e.outcome === 'failure');

/** Runs of one failed command typed again right after it failed: [start, end) in the trajectory. */
function repeatRuns(t: StepRecord[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < t.length; ) {
    const s = t[i] as StepRecord;
    let j = i + 1;
    if (failed(s))
      while (
        j < t.length &&
        failed(t[j] as StepRecord) &&
        commandOf(t[j] as StepRecord) === commandOf(s)
      )
        j++;
    if (j - i >= 3) runs.push([i, j]);
    i = j;
  }
  return runs;
}

function loops(episodes: ObservedEpisode[]): Finding | undefined {
  const groups: Evidence[][] = [];
  let repeats = 0;
  for (const e of episodes) {
    const runs = repeatRuns(e.trajectory);
    if (runs.length === 0) continue;
    repeats += runs.reduce((n, [i, j]) => n + j - i - 1, 0);
    groups.push(
      runs.slice(0, 2).map(([i, j]) => {
        const retry = e.trajectory[i + 1] as StepRecord;
        return typedAt(e, retry, `failed at step ${i} and was typed again ${j - i - 1} time(s)`);
      }),
    );
  }
  if (groups.length === 0) return undefined;
  return {
    axis: 'action',
    label: 'repeats-failed-actions',
    description: `The agent typed a command again right after the environment rejected it: ${repeats} wasted step(s) in ${groups.length} of ${episodes.length} failing episode(s). It burns its step budget in loops instead of trying something else.`,
    evidence: interleave(groups, 12),
    episodes: groups.length,
    rank: 1,
  };
}

/** The longest run of failed actions in a row: its start and length. */
function longestFailedRun(t: StepRecord[]): { start: number; length: number } {
  let best = { start: 0, length: 0 };
  let start = 0;
  t.forEach((s, i) => {
    if (!failed(s)) return;
    if (i === 0 || !failed(t[i - 1] as StepRecord)) start = i;
    if (i - start + 1 > best.length) best = { start, length: i - start + 1 };
  });
  return best;
}

function invalidStreaks(episodes: ObservedEpisode[]): Finding | undefined {
  const evidence: Evidence[] = [];
  let longest = 0;
  for (const e of episodes) {
    const run = longestFailedRun(e.trajectory);
    if (run.length < 5) continue;
    longest = Math.max(longest, run.length);
    const first = e.trajectory[run.start] as StepRecord;
    evidence.push(shownAt(e, first, `${run.length} failed actions in a row from here`));
  }
  if (evidence.length === 0) return undefined;
  return {
    axis: 'action',
    label: 'invalid-action-streak',
    description: `In ${evidence.length} of ${episodes.length} failing episode(s) the agent made 5 or more failed actions in a row (the longest run: ${longest}): a sign that it misreads which actions are possible here.`,
    evidence: evidence.slice(0, 12),
    episodes: evidence.length,
    rank: 3,
  };
}

function byCategory(
  episodes: ObservedEpisode[],
  category: string,
  axis: Axis,
  label: string,
  description: (n: number, of: number) => string,
  rank: number,
): Finding | undefined {
  const hits = episodes.filter((e) => e.failureCategory === category);
  if (hits.length === 0) return undefined;
  return {
    axis,
    label,
    description: description(hits.length, episodes.length),
    evidence: hits
      .filter((e) => e.trajectory.length > 0)
      .map((e) =>
        typedAt(
          e,
          e.trajectory.at(-1) as StepRecord,
          `last step: ${category.replaceAll('_', ' ')}`,
        ),
      ),
    episodes: hits.length,
    rank,
  };
}

export function findings(baseline: Batch, task: TaskInfo, design?: BridgeDesign): Finding[] {
  const fails = failing(baseline);
  const cut = fails.filter((e) => e.failureCategory === 'step_budget_exhausted');
  const lengths = [...new Set(cut.map((e) => e.steps))];
  const budget = lengths.length === 1 ? ` (${lengths[0]} steps)` : '';
  const out = [
    ...(design?.findings?.(fails, task) ?? []),
    loops(fails),
    invalidStreaks(fails),
    byCategory(
      fails,
      'step_budget_exhausted',
      'start_state',
      'runs-out-of-steps',
      (n, of) =>
        `${n} of ${of} failing episode(s) used the whole step budget${budget} without reaching the goal: from this start state the search is too long for the agent.`,
      5,
    ),
    byCategory(
      fails,
      'gave_up',
      'task_understanding',
      'gives-up-early',
      (n, of) =>
        `${n} of ${of} failing episode(s) ended with the agent giving up before the budget ran out, with the goal not met.`,
      6,
    ),
    byCategory(
      fails,
      'wrong_final_state',
      'task_understanding',
      'wrong-final-state',
      (n, of) =>
        `${n} of ${of} failing episode(s) ended with the verifier rejecting the final state.`,
      7,
    ),
    byCategory(
      fails,
      'invalid_action_loop',
      'action',
      'invalid-action-loop',
      (n, of) => `${n} of ${of} failing episode(s) ended in a loop of invalid actions.`,
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

function noFinding(baseline: Batch, direction: Direction, pct: string): DiagnosisReport {
  const rate = baseline.stats.successRate;
  const successes = baseline.episodes.filter(
    (e) => e.outcome === 'success' && e.trajectory.length > 0,
  );
  return {
    axis: 'none',
    label: rate === 1 ? 'mastered' : 'no-failure-pattern',
    description:
      rate === 1
        ? `The policy solved all ${successes.length} baseline episodes (mean ${baseline.stats.meanSteps?.toFixed(1) ?? '?'} steps): the task no longer teaches it anything. Direction: a harder variant that stays solvable.`
        : `Baseline ${pct}; no recurring failure pattern in the trajectories.${direction === 'none' ? ' The task is already challenging but solvable.' : ''}`,
    evidence: successes
      .slice(0, 5)
      .map((e) => shownAt(e, e.trajectory.at(-1) as StepRecord, `solved in ${e.steps} steps`)),
    direction,
  };
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
  const others = all.filter((f) => f !== main);
  const secondary = others.map((f) => ({
    axis: f.axis,
    label: f.label,
    description: f.description,
  }));
  const claims = all.flatMap((f) => f.claims ?? []);
  const extra = {
    ...(secondary.length ? { secondary } : {}),
    ...(claims.length ? { claims } : {}),
  };
  const pct = rate === null ? 'no scored episode' : `${Math.round(rate * 100)}% success`;
  if (!main) return { ...noFinding(baseline, direction, pct), ...extra };
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
    ...extra,
  };
}
