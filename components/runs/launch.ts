// What the launch forms send, as plain functions: which policies a form offers, the one it uses
// before anyone picks, the launch input built from the form's values, and its problems — checked
// with the server's own schema (contracts/launch.ts), so the form says what the server would refuse.

import { type Problem, problemsOf } from '../../contracts/issues.ts';
import { LaunchRunFieldsSchema, LaunchRunInputSchema } from '../../contracts/launch.ts';
import type { RewardParams } from '../../contracts/runs.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { isLlmPolicy } from '../llm/format.ts';
import { type LlmForm, llmOptionProblems, llmPolicyOptions } from '../llm/launch-options.ts';
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
  /** Mode, think cost, reasoning and price of an LLM policy (sent only for one). */
  llm?: LlmForm;
  /** GRPO group size G (1: no groups). */
  groupSize?: number;
  /** Consecutive invalid actions that end an episode; null/absent: no cut-off (the default). */
  invalidLoopLimit?: number | null;
  /** Episodes at once; absent or blank (NaN): the server's default. */
  concurrency?: number;
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
  const policyOptions = {
    ...(form.skillBankId ? { skillBankId: form.skillBankId } : {}),
    ...(form.llm && isLlmPolicy(form.policy) ? llmPolicyOptions(form.llm) : {}),
  };
  return {
    spec: spec ?? { version: 1, env: { type: 'base', bridge, task } },
    policy: form.policy,
    k: form.k,
    seed: form.seed,
    maxSteps: form.maxSteps,
    kind,
    ...(form.groupSize !== undefined && form.groupSize !== 1 ? { groupSize: form.groupSize } : {}),
    ...(form.invalidLoopLimit !== undefined && form.invalidLoopLimit !== null
      ? { invalidLoopLimit: form.invalidLoopLimit }
      : {}),
    ...(form.concurrency !== undefined && !Number.isNaN(form.concurrency)
      ? { concurrency: form.concurrency }
      : {}),
    ...(harnessVersionId ? { harnessVersionId } : {}),
    ...(rewardParams ? { rewardParams } : {}),
    ...(Object.keys(policyOptions).length > 0 ? { policyOptions } : {}),
  };
}

/** The seeds a run of K episodes from `seed` plays (at least one). */
export function seedRange(seed: number, k: number): [number, number] {
  return [seed, seed + Math.max(k, 1) - 1];
}

/** What a run of K episodes in groups of G plays, in words (the form's line above the button). */
export function seedsText(seed: number, k: number, groupSize = 1): string {
  const [first, last] = seedRange(seed, k);
  if (groupSize <= 1) return `Seeds ${first} … ${last}, one episode each.`;
  const groups = Math.floor(k / groupSize);
  return `${groups} group${groups === 1 ? '' : 's'} of ${groupSize}: start seeds ${seed} … ${seed + groups - 1}, each played ${groupSize} times with policy seeds ${first} … ${last}.`;
}

/** The launch input's problems under the server's schema (none: it may be sent). */
export function runLaunchProblems(input: unknown): Problem[] {
  const parsed = LaunchRunInputSchema.safeParse(input);
  if (!parsed.success) return problemsOf(parsed.error);
  // An LLM policy's options: checked as the server's policy checks them.
  const { policy, policyOptions } = parsed.data;
  return isLlmPolicy(policy) && policyOptions ? llmOptionProblems(policyOptions) : [];
}

/** The range a number of the launch input may take, from the server's schema. */
export const RUN_FIELD_RANGE = {
  k: numberRange(LaunchRunFieldsSchema.shape.k.unwrap()),
  groupSize: numberRange(LaunchRunFieldsSchema.shape.groupSize.unwrap()),
  invalidLoopLimit: numberRange(LaunchRunFieldsSchema.shape.invalidLoopLimit.unwrap()),
  seed: numberRange(LaunchRunFieldsSchema.shape.seed.unwrap()),
  maxSteps: numberRange(LaunchRunFieldsSchema.shape.maxSteps.unwrap()),
  concurrency: numberRange(LaunchRunFieldsSchema.shape.concurrency.unwrap()),
};

/** A zod number's bounds (minValue / maxValue), for a field's hint and its input's min / max. */
export function numberRange(schema: { minValue: number | null; maxValue: number | null }): {
  min: number | undefined;
  max: number | undefined;
} {
  const bounded = (v: number | null) =>
    v === null || !Number.isFinite(v) || Math.abs(v) >= Number.MAX_SAFE_INTEGER ? undefined : v;
  return { min: bounded(schema.minValue), max: bounded(schema.maxValue) };
}

/** "1 … 100,000" (or "at least 1", "any whole number"): the hint under a number field. */
export function rangeHint(r: { min: number | undefined; max: number | undefined }): string {
  const n = (v: number) => v.toLocaleString('en-US');
  if (r.min !== undefined && r.max !== undefined) return `${n(r.min)} … ${n(r.max)}`;
  if (r.min !== undefined) return `at least ${n(r.min)}`;
  if (r.max !== undefined) return `at most ${n(r.max)}`;
  return 'any whole number';
}
