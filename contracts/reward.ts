// The EvoHarness cost-aware reward (PAPERS.md §2):
//   R(τ) = R_succ + λ_eff·R_eff + λ_div(u)·R_div − λ_spam·R_spam − λ_inv·R_inv
// Precise definitions of the terms the paper leaves open (kept here so the studio can cite them):
// * |τ| is the number of agent steps, invalid ones included (every action costs a step).
// * verb(a): for the bridge's text tool (household `act {command}`) the first word of the command,
//   lower-cased ("go to desk 1" -> "go"); otherwise the tool name. Malformed decisions have no verb.
// * R_div = |{verb(a_t)}| / |τ|, 0 for an empty trajectory.
// * R_spam = the number of steps whose action is an exact repeat (same tool, same arguments) of the
//   immediately preceding step's action, capped at `spamCap`. Malformed decisions never count as
//   repeats (they are already penalised by R_inv) and break a run of repeats.
// * R_inv = the number of invalid actions: malformed decisions plus actions the environment or a
//   harness layer rejected (`invalid` on the step record).
// It lives in the contracts module because it defines what the stored terms mean: the rollouts
// compute it, the studio explains it term by term.
import type { Action, Json } from '../bridges/core/types.ts';
import { type CostAwareReward, DEFAULT_REWARD_PARAMS, type RewardParams } from './runs.ts';
import type { StepRecord } from './steps.ts';

/** The action name recorded for a decision that was not a valid tool call. */
export const MALFORMED_ACTION_NAME = '__invalid__';

export function resolveRewardParams(partial?: Partial<RewardParams>): RewardParams {
  return { ...DEFAULT_REWARD_PARAMS, ...(partial ?? {}) };
}

/** λ_div(u) = (λ_div_max / 2)·(1 + cos(π·u/U)); u is clamped to [0, U]. */
export function lambdaDiv(params: Pick<RewardParams, 'lambdaDivMax' | 'annealUpdates' | 'update'>) {
  if (params.annealUpdates <= 0) return params.lambdaDivMax;
  const u = Math.min(Math.max(params.update, 0), params.annealUpdates);
  return (params.lambdaDivMax / 2) * (1 + Math.cos((Math.PI * u) / params.annealUpdates));
}

export function verbOf(action: Action, textTool?: { name: string; arg: string }): string | null {
  if (action.name === MALFORMED_ACTION_NAME) return null;
  if (textTool && action.name === textTool.name) {
    const text = action.args[textTool.arg];
    if (typeof text === 'string') {
      const word = text.trim().split(/\s+/)[0];
      if (word) return word.toLowerCase();
    }
  }
  return action.name;
}

/** Canonical JSON (sorted keys) so that argument order never makes two equal actions differ. */
export function canonicalJson(value: Json | undefined): string {
  if (value === null || value === undefined || typeof value !== 'object')
    return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

function actionKey(action: Action): string {
  return `${action.name}\u0000${canonicalJson(action.args)}`;
}

type StepLike = Pick<StepRecord, 'action' | 'invalid'>;

export function countRepeats(trajectory: StepLike[]): number {
  let repeats = 0;
  let previous: string | null = null;
  for (const step of trajectory) {
    if (step.action.name === MALFORMED_ACTION_NAME) {
      previous = null;
      continue;
    }
    const key = actionKey(step.action);
    if (key === previous) repeats += 1;
    previous = key;
  }
  return repeats;
}

export function costAwareReward(
  episode: { success: boolean; trajectory: StepLike[]; textTool?: { name: string; arg: string } },
  params: RewardParams = DEFAULT_REWARD_PARAMS,
): CostAwareReward {
  const length = episode.trajectory.length;
  const rSucc = episode.success ? params.success : 0;
  const rEff = episode.success && params.tMax > 0 ? Math.max(0, 1 - length / params.tMax) : 0;
  const verbs = new Set<string>();
  for (const step of episode.trajectory) {
    const verb = verbOf(step.action, episode.textTool);
    if (verb !== null) verbs.add(verb);
  }
  const rDiv = length === 0 ? 0 : verbs.size / length;
  const rSpam = Math.min(countRepeats(episode.trajectory), params.spamCap);
  const rInv = episode.trajectory.filter((s) => s.invalid).length;
  const lDiv = lambdaDiv(params);
  const total =
    rSucc +
    params.lambdaEff * rEff +
    lDiv * rDiv -
    params.lambdaSpam * rSpam -
    params.lambdaInv * rInv;
  return {
    total,
    rSucc,
    rEff,
    rDiv,
    rSpam,
    rInv,
    lambdaEff: params.lambdaEff,
    lambdaDiv: lDiv,
    lambdaSpam: params.lambdaSpam,
    lambdaInv: params.lambdaInv,
  };
}
