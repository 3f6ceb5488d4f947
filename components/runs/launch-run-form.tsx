'use client';
// Launch a run of a policy on a task (bare: a baseline) or on a harness version (a validation).
// Every field says its range and its problems inline, checked with the server's schema.
import { Play } from 'lucide-react';
import { SUGGESTED_INVALID_LOOP_LIMIT } from '../../contracts/outcomes.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { RewardParamsFields } from '../bpe/reward-params-fields.tsx';
import { isLlmPolicy } from '../llm/format.ts';
import { DEFAULT_LLM_FORM } from '../llm/launch-options.ts';
import { LlmOptionsFields } from '../llm/llm-options-fields.tsx';
import { SkillBankSelect } from '../skills/skill-bank-select.tsx';
import { Button } from '../ui/button.tsx';
import { Field, NumberField } from '../ui/field.tsx';
import { FieldProblems } from '../ui/field-problems.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { otherProblems, problemsAt } from '../ui/problems.ts';
import { RUN_FIELD_RANGE, rangeHint, seedsText } from './launch.ts';
import { PolicySelect } from './policy-select.tsx';
import { useLaunchRun } from './use-launch-run.ts';

/** Fields that show their own problems; the rest go to the note above the button. */
const FIELD_PATHS = [
  'policy',
  'k',
  'seed',
  'maxSteps',
  'groupSize',
  'invalidLoopLimit',
  'concurrency',
  'rewardParams',
  'policyOptions.pricePromptPerM',
  'policyOptions.priceCompletionPerM',
  'policyOptions.priceCachedPerM',
] as const;

export function LaunchRunForm({
  bridge,
  task,
  spec,
  harnessVersionId,
  kind = 'baseline',
  defaultK = 8,
}: {
  bridge: string;
  task: string;
  spec?: HarnessSpec;
  harnessVersionId?: string;
  kind?: 'baseline' | 'validation';
  defaultK?: number;
}) {
  const l = useLaunchRun({ bridge, task, spec, harnessVersionId, kind, defaultK });
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="launch-form"
      // The schema checks every field inline; the browser's own tooltips would disagree with it.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        l.submit();
      }}
    >
      <PolicyField l={l} />
      {isLlmPolicy(l.chosen) ? (
        <LlmOptionsFields
          value={l.form.llm ?? DEFAULT_LLM_FORM}
          onChange={(v) => l.set('llm', v)}
          problems={l.problems}
        />
      ) : null}
      <RunSizeFields l={l} />
      <EpisodeRulesFields l={l} />
      <SkillBankSelect
        bridge={bridge}
        value={l.form.skillBankId}
        onChange={(v) => l.set('skillBankId', v)}
      />
      <RewardParamsFields values={l.reward.values} setValues={l.reward.setValues} />
      <FieldProblems
        problems={problemsAt(l.problems, 'rewardParams')}
        testId="launch-reward-problem"
      />
      {l.valid ? (
        <p className="text-xs text-muted-foreground" data-testid="launch-seeds">
          {seedsText(l.form.seed, l.form.k, l.form.groupSize)}
        </p>
      ) : null}
      <ErrorNote problems={otherProblems(l.problems, FIELD_PATHS)} testId="launch-error" />
      {l.blocked ? (
        <p className="text-xs text-muted-foreground" data-testid="launch-blocked">
          {l.blocked}
        </p>
      ) : null}
      <Button
        type="submit"
        data-testid="launch-run"
        disabled={!l.chosen || !l.valid || l.launch.isPending || l.blocked !== undefined}
        title={l.blocked}
      >
        <Play />{' '}
        {l.launch.isPending
          ? 'Launching…'
          : kind === 'validation'
            ? 'Launch validation run'
            : 'Launch baseline run'}
      </Button>
    </form>
  );
}

type Launch = ReturnType<typeof useLaunchRun>;

function PolicyField({ l }: { l: Launch }) {
  return (
    <Field label="Policy" htmlFor="l-policy">
      <PolicySelect
        id="l-policy"
        testId="launch-policy"
        value={l.chosen}
        policies={l.usable}
        onChange={(policy) => l.set('policy', policy)}
      />
      {l.descriptor ? (
        <p className="text-xs text-muted-foreground" data-testid="policy-description">
          {l.descriptor.description}
          {l.descriptor.weaknesses?.length ? (
            <span className="block pt-1">Weaknesses: {l.descriptor.weaknesses.join('; ')}</span>
          ) : null}
        </p>
      ) : null}
      <FieldProblems problems={problemsAt(l.problems, 'policy')} testId="launch-policy-problem" />
    </Field>
  );
}

function RunSizeFields({ l }: { l: Launch }) {
  const { k, seed, maxSteps } = RUN_FIELD_RANGE;
  return (
    <div className="grid grid-cols-3 gap-2">
      <NumberField
        id="l-k"
        testId="launch-k"
        label="Episodes (K)"
        {...k}
        hint={rangeHint(k)}
        problems={problemsAt(l.problems, 'k')}
        value={l.form.k}
        onChange={(v) => l.set('k', v)}
      />
      <NumberField
        id="l-seed"
        testId="launch-seed"
        label="First seed"
        {...seed}
        hint="any 32-bit whole number"
        problems={problemsAt(l.problems, 'seed')}
        value={l.form.seed}
        onChange={(v) => l.set('seed', v)}
      />
      <NumberField
        id="l-max"
        testId="launch-max-steps"
        label="Max steps"
        {...maxSteps}
        hint={rangeHint(maxSteps)}
        problems={problemsAt(l.problems, 'maxSteps')}
        value={l.form.maxSteps}
        onChange={(v) => l.set('maxSteps', v)}
      />
    </div>
  );
}

/** GRPO groups, episodes at once and the invalid-action cut-off: explicit, off by default. */
function EpisodeRulesFields({ l }: { l: Launch }) {
  const { groupSize, invalidLoopLimit, concurrency } = RUN_FIELD_RANGE;
  const cutoff = l.form.invalidLoopLimit ?? null;
  return (
    <div className="grid grid-cols-3 gap-2">
      <NumberField
        id="l-group"
        testId="launch-group-size"
        label="Group size (G)"
        {...groupSize}
        hint="GRPO: every start seed is played G times with different policy seeds (K a multiple of G); 1 = no groups"
        problems={problemsAt(l.problems, 'groupSize')}
        value={l.form.groupSize ?? 1}
        onChange={(v) => l.set('groupSize', v)}
      />
      <NumberField
        id="l-concurrency"
        testId="launch-concurrency"
        label="Episodes at once"
        {...concurrency}
        hint={`blank: the server's default; an LLM policy on a stack without hook code waits on the model, so hundreds fit (${rangeHint(concurrency)}, up to the server's cap)`}
        problems={problemsAt(l.problems, 'concurrency')}
        value={l.form.concurrency ?? Number.NaN}
        onChange={(v) => l.set('concurrency', v)}
      />
      <div className="flex flex-col gap-1">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            data-testid="launch-cutoff"
            checked={cutoff !== null}
            onChange={(e) =>
              l.set('invalidLoopLimit', e.target.checked ? SUGGESTED_INVALID_LOOP_LIMIT : null)
            }
          />
          Invalid-action cut-off
        </label>
        {cutoff !== null ? (
          <NumberField
            id="l-cutoff"
            testId="launch-cutoff-limit"
            label="End an episode after this many invalid actions in a row"
            {...invalidLoopLimit}
            problems={problemsAt(l.problems, 'invalidLoopLimit')}
            value={cutoff}
            onChange={(v) => l.set('invalidLoopLimit', v)}
          />
        ) : (
          <p className="text-xs text-muted-foreground">
            Off (the default): the benchmarks and the papers have no such cut-off, only the step
            budget.
          </p>
        )}
      </div>
    </div>
  );
}
