// What the launch forms send, as plain functions: which policies a form offers, the one it uses
// before anyone picks, and the launch input built from the form's values.

import type { RewardParams } from '../../contracts/runs.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import type { RouterInputs } from '../trpc/types.ts';

/** `human` cannot run unattended, so launch forms never offer it. */
export function usablePolicies<P extends { kind: string }>(policies: P[] | undefined): P[] {
  return (policies ?? []).filter((p) => p.kind !== 'human');
}

/** The picked policy, or the first usable one until someone picks. */
export function chosenPolicy(picked: string, usable: { id: string }[]): string {
  return picked || usable[0]?.id || '';
}

export interface RunForm {
  policy: string;
  k: number;
  seed: number;
  maxSteps: number;
  skillBankId: string;
}

export function runLaunchInput(args: {
  bridge: string;
  task: string;
  spec: HarnessSpec | undefined;
  harnessVersionId: string | undefined;
  kind: 'baseline' | 'validation';
  form: RunForm;
  rewardParams: Partial<RewardParams> | undefined;
}): RouterInputs['runs']['launch'] {
  const { bridge, task, spec, harnessVersionId, kind, form, rewardParams } = args;
  return {
    spec: spec ?? { version: 1, env: { type: 'base', bridge, task } },
    policy: form.policy,
    k: form.k,
    seed: form.seed,
    maxSteps: form.maxSteps,
    kind,
    ...(harnessVersionId ? { harnessVersionId } : {}),
    ...(rewardParams ? { rewardParams } : {}),
    ...(form.skillBankId ? { policyOptions: { skillBankId: form.skillBankId } } : {}),
  };
}

/** The seeds a run of K episodes from `seed` plays (at least one). */
export function seedRange(seed: number, k: number): [number, number] {
  return [seed, seed + Math.max(k, 1) - 1];
}
