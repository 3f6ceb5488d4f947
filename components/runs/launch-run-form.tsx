'use client';
// Launch a run of a policy on a task (bare: a baseline) or on a harness version (a validation).
import { Play } from 'lucide-react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { RewardParamsFields } from '../bpe/reward-params-fields.tsx';
import { SkillBankSelect } from '../skills/skill-bank-select.tsx';
import { Button } from '../ui/button.tsx';
import { Field, NumberField } from '../ui/field.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { seedRange } from './launch.ts';
import { PolicySelect } from './policy-select.tsx';
import { useLaunchRun } from './use-launch-run.ts';

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
  const [first, last] = seedRange(l.form.seed, l.form.k);
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="launch-form"
      onSubmit={(e) => {
        e.preventDefault();
        l.submit();
      }}
    >
      <PolicyField l={l} />
      <RunSizeFields l={l} />
      <SkillBankSelect
        bridge={bridge}
        value={l.form.skillBankId}
        onChange={(v) => l.set('skillBankId', v)}
      />
      <RewardParamsFields values={l.reward.values} setValues={l.reward.setValues} />
      <p className="text-xs text-muted-foreground">
        Seeds {first} … {last}, one episode each.
      </p>
      <ErrorNote error={l.launch.error} />
      <Button type="submit" data-testid="launch-run" disabled={!l.chosen || l.launch.isPending}>
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
    </Field>
  );
}

function RunSizeFields({ l }: { l: Launch }) {
  return (
    <div className="grid grid-cols-3 gap-2">
      <NumberField
        id="l-k"
        testId="launch-k"
        label="Episodes (K)"
        min={1}
        max={1000}
        value={l.form.k}
        onChange={(v) => l.set('k', v)}
      />
      <NumberField
        id="l-seed"
        testId="launch-seed"
        label="First seed"
        value={l.form.seed}
        onChange={(v) => l.set('seed', v)}
      />
      <NumberField
        id="l-max"
        testId="launch-max-steps"
        label="Max steps"
        min={1}
        value={l.form.maxSteps}
        onChange={(v) => l.set('maxSteps', v)}
      />
    </div>
  );
}
