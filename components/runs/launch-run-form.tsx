'use client';
// Launch a run of a policy on a task (bare: a baseline) or on a harness version (a validation).
import { useMutation, useQuery } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { HarnessSpec } from '../../server/harness/spec.ts';
import { RewardParamsFields, useRewardParams } from '../bpe/reward-params-fields.tsx';
import { SkillBankSelect } from '../skills/skill-bank-select.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Label, Select } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';

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
  const trpc = useTRPC();
  const router = useRouter();
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge }));
  // Scripted policies first: they run offline and deterministically; `human` cannot run unattended.
  const usable = (policies.data ?? []).filter((p) => p.kind !== 'human');
  const [policy, setPolicy] = useState<string>('');
  const [k, setK] = useState(defaultK);
  const [seed, setSeed] = useState(0);
  const [maxSteps, setMaxSteps] = useState(50);
  const [skillBankId, setSkillBankId] = useState('');
  const reward = useRewardParams();
  const chosen = policy || usable[0]?.id || '';
  const descriptor = usable.find((p) => p.id === chosen);

  const launch = useMutation(
    trpc.runs.launch.mutationOptions({
      onSuccess: ({ runId }) => router.push(`/runs/${runId}`),
    }),
  );

  return (
    <form
      className="flex flex-col gap-3"
      data-testid="launch-form"
      onSubmit={(e) => {
        e.preventDefault();
        launch.mutate({
          spec: spec ?? { version: 1, env: { type: 'base', bridge, task } },
          policy: chosen,
          k,
          seed,
          maxSteps,
          kind,
          ...(harnessVersionId ? { harnessVersionId } : {}),
          ...(reward.changed ? { rewardParams: reward.changed } : {}),
          ...(skillBankId ? { policyOptions: { skillBankId } } : {}),
        });
      }}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="l-policy">Policy</Label>
        <Select
          id="l-policy"
          data-testid="launch-policy"
          value={chosen}
          onChange={(e) => setPolicy(e.target.value)}
        >
          {usable.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
              {p.kind === 'scripted' ? ' (scripted)' : ''}
            </option>
          ))}
        </Select>
        {descriptor ? (
          <p className="text-xs text-muted-foreground" data-testid="policy-description">
            {descriptor.description}
            {descriptor.weaknesses?.length ? (
              <span className="block pt-1">Weaknesses: {descriptor.weaknesses.join('; ')}</span>
            ) : null}
          </p>
        ) : null}
      </div>
      <div className="grid grid-cols-3 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="l-k">Episodes (K)</Label>
          <Input
            id="l-k"
            data-testid="launch-k"
            type="number"
            min={1}
            max={1000}
            value={k}
            onChange={(e) => setK(Number(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="l-seed">First seed</Label>
          <Input
            id="l-seed"
            data-testid="launch-seed"
            type="number"
            value={seed}
            onChange={(e) => setSeed(Number(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="l-max">Max steps</Label>
          <Input
            id="l-max"
            data-testid="launch-max-steps"
            type="number"
            min={1}
            value={maxSteps}
            onChange={(e) => setMaxSteps(Number(e.target.value))}
          />
        </div>
      </div>
      <SkillBankSelect bridge={bridge} value={skillBankId} onChange={setSkillBankId} />
      <RewardParamsFields values={reward.values} setValues={reward.setValues} />
      <p className="text-xs text-muted-foreground">
        Seeds {seed} … {seed + Math.max(k, 1) - 1}, one episode each.
      </p>
      <ErrorNote error={launch.error} />
      <Button type="submit" data-testid="launch-run" disabled={!chosen || launch.isPending}>
        <Play />{' '}
        {launch.isPending
          ? 'Launching…'
          : kind === 'validation'
            ? 'Launch validation run'
            : 'Launch baseline run'}
      </Button>
    </form>
  );
}
