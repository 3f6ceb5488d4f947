'use client';
// The launch form's state: the policy (the first usable one until someone picks), K, seed, step
// budget, skill bank and reward parameters; launching opens the new run's page.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { useRewardParams } from '../bpe/reward-params-fields.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { chosenPolicy, type RunForm, runLaunchInput, usablePolicies } from './launch.ts';

export function useLaunchRun(args: {
  bridge: string;
  task: string;
  spec: HarnessSpec | undefined;
  harnessVersionId: string | undefined;
  kind: 'baseline' | 'validation';
  defaultK: number;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge: args.bridge }));
  // Scripted policies first: they run offline and deterministically; `human` cannot run unattended.
  const usable = usablePolicies(policies.data);
  const [form, setForm] = useState<RunForm>({
    policy: '',
    k: args.defaultK,
    seed: 0,
    maxSteps: 50,
    skillBankId: '',
  });
  const set = <K extends keyof RunForm>(key: K, value: RunForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const reward = useRewardParams();
  const chosen = chosenPolicy(form.policy, usable);
  const launch = useMutation(
    trpc.runs.launch.mutationOptions({
      onSuccess: ({ runId }) => router.push(`/runs/${runId}`),
    }),
  );
  const submit = () =>
    launch.mutate(
      runLaunchInput({ ...args, form: { ...form, policy: chosen }, rewardParams: reward.changed }),
    );
  return {
    form,
    set,
    usable,
    chosen,
    descriptor: usable.find((p) => p.id === chosen),
    reward,
    launch,
    submit,
  };
}
