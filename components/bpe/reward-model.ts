// The cost-aware reward of one episode as the studio shows it: one row per term (its value, its
// weight — for diversity the annealed λ_div(u) — and its signed contribution to the total), read
// from the terms the recorder stored with the episode (server/rollouts/reward.ts computes them).

export interface RewardRow {
  term: 'task' | 'efficiency' | 'diversity' | 'spam' | 'invalid';
  symbol: string;
  value: number;
  weight: number;
  sign: 1 | -1;
  contribution: number;
}

export interface RewardView {
  rows: RewardRow[];
  total: number;
  /** Annealing of λ_div when the run's parameters are known. */
  anneal?: { lambdaDivMax: number; update: number; annealUpdates: number };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** Null when the episode has no stored reward terms (an error, or not finished). */
export function rewardView(costReward: unknown, runRewardParams?: unknown): RewardView | null {
  const c = obj(costReward);
  if (!c) return null;
  const total = num(c.total);
  if (total === undefined) return null;
  const term = (
    t: RewardRow['term'],
    symbol: string,
    valueKey: string,
    weight: number | undefined,
    sign: 1 | -1,
  ): RewardRow => {
    const value = num(c[valueKey]) ?? 0;
    const w = weight ?? 0;
    return { term: t, symbol, value, weight: w, sign, contribution: sign * w * value };
  };
  const rows = [
    term('task', 'R_succ', 'rSucc', 1, 1),
    term('efficiency', 'R_eff', 'rEff', num(c.lambdaEff), 1),
    term('diversity', 'R_div', 'rDiv', num(c.lambdaDiv), 1),
    term('spam', 'R_spam', 'rSpam', num(c.lambdaSpam), -1),
    term('invalid', 'R_inv', 'rInv', num(c.lambdaInv), -1),
  ];
  const p = obj(runRewardParams);
  const defaults = { lambdaDivMax: 1, update: 0, annealUpdates: 150 };
  const anneal = p
    ? {
        lambdaDivMax: num(p.lambdaDivMax) ?? defaults.lambdaDivMax,
        update: num(p.update) ?? defaults.update,
        annealUpdates: num(p.annealUpdates) ?? defaults.annealUpdates,
      }
    : undefined;
  return { rows, total, ...(anneal ? { anneal } : {}) };
}
