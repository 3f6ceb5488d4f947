'use client';
// The cost-aware reward's parameters for one run (PAPERS.md §2), editable in a launch form. Only the
// values that differ from the defaults are sent: the run stores them, and every episode's reward
// terms are computed with them.
import { useState } from 'react';
import {
  DEFAULT_REWARD_PARAMS,
  DEFAULT_REWARD_SOURCES,
  type RewardParams,
} from '../../contracts/runs.ts';
import { Input, Label } from '../ui/input.tsx';

export const REWARD_PARAM_FIELDS: { key: keyof RewardParams; label: string; int?: boolean }[] = [
  { key: 'success', label: 'R_succ (success reward)' },
  { key: 'tMax', label: 'T_max (efficiency horizon)', int: true },
  { key: 'lambdaEff', label: 'λ_eff' },
  { key: 'lambdaDivMax', label: 'λ_div max' },
  { key: 'annealUpdates', label: 'U (anneal updates)', int: true },
  { key: 'update', label: 'u (current update)', int: true },
  { key: 'lambdaSpam', label: 'λ_spam' },
  { key: 'lambdaInv', label: 'λ_inv' },
  { key: 'spamCap', label: 'spam cap', int: true },
];

/** The edited parameters (only those differing from the defaults), or undefined for none. */
export function changedRewardParams(
  values: Record<keyof RewardParams, string>,
): Partial<RewardParams> | undefined {
  const out: Partial<RewardParams> = {};
  for (const f of REWARD_PARAM_FIELDS) {
    const text = values[f.key].trim();
    if (text === '') continue;
    const n = Number(text);
    if (!Number.isFinite(n) || n === DEFAULT_REWARD_PARAMS[f.key]) continue;
    out[f.key] = f.int ? Math.round(n) : n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function useRewardParams() {
  const [values, setValues] = useState<Record<keyof RewardParams, string>>(
    () =>
      Object.fromEntries(
        REWARD_PARAM_FIELDS.map((f) => [f.key, String(DEFAULT_REWARD_PARAMS[f.key])]),
      ) as Record<keyof RewardParams, string>,
  );
  return { values, setValues, changed: changedRewardParams(values) };
}

export function RewardParamsFields({
  values,
  setValues,
}: {
  values: Record<keyof RewardParams, string>;
  setValues: (v: Record<keyof RewardParams, string>) => void;
}) {
  return (
    <details className="rounded-md border px-3 py-2 text-sm" data-testid="reward-params">
      <summary className="cursor-pointer text-muted-foreground">
        Cost-aware reward parameters
      </summary>
      <p className="pt-1 text-xs text-muted-foreground">
        R = R_succ + λ_eff·R_eff + λ_div(u)·R_div − λ_spam·R_spam − λ_inv·R_inv, λ_div(u) = (λ_div
        max / 2)(1 + cos(πu/U)). Defaults: R_succ 10 is EvoHarness-RL’s, λ_inv 0.1 is EnvHarness
        F.1’s; the others are ours (hover a field for its source).
      </p>
      <div className="grid grid-cols-3 gap-2 pt-2">
        {REWARD_PARAM_FIELDS.map((f) => (
          <div key={f.key} className="flex flex-col gap-1">
            <Label
              htmlFor={`rp-${f.key}`}
              className="text-xs"
              title={`Default ${DEFAULT_REWARD_PARAMS[f.key]}: ${DEFAULT_REWARD_SOURCES[f.key]}`}
            >
              {f.label}
            </Label>
            <Input
              id={`rp-${f.key}`}
              data-testid={`reward-param-${f.key}`}
              type="number"
              step={f.int ? 1 : 'any'}
              value={values[f.key]}
              onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
            />
          </div>
        ))}
      </div>
    </details>
  );
}
