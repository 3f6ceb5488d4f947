'use client';
// The launch form's state: the policy (the first usable one until someone picks), K, seed, step
// budget, skill bank and reward parameters; launching opens the new run's page. The input is checked
// with the server's schema as it is typed, and launching waits until it passes; a caller whose role
// may not launch sees why instead of the button.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { DEFAULT_MAX_STEPS } from '../../contracts/launch.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { useRewardParams } from '../bpe/reward-params-fields.tsx';
import { useBlockedReason } from '../hooks/use-access.ts';
import { DEFAULT_LLM_FORM } from '../llm/launch-options.ts';
import { useTRPC } from '../trpc/client.tsx';
import { problemsOfError } from '../ui/problems.ts';
import {
  chosenPolicy,
  type RunForm,
  runLaunchInput,
  runLaunchProblems,
  usablePolicies,
} from './launch.ts';

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
    maxSteps: DEFAULT_MAX_STEPS,
    skillBankId: '',
    llm: DEFAULT_LLM_FORM,
    groupSize: 1,
    invalidLoopLimit: null,
  });
  const reward = useRewardParams();
  const chosen = chosenPolicy(form.policy, usable);
  const launch = useMutation(
    trpc.runs.launch.mutationOptions({
      onSuccess: ({ runId }) => router.push(`/runs/${runId}`),
    }),
  );
  // An edit answers the server's last refusal: it is no longer about what the form holds.
  const set = <K extends keyof RunForm>(key: K, value: RunForm[K]) => {
    launch.reset();
    setForm((f) => ({ ...f, [key]: value }));
  };
  const input = runLaunchInput({
    ...args,
    form: { ...form, policy: chosen },
    rewardParams: reward.changed,
  });
  // What the form itself finds, else what the server answered (both: sentences with paths).
  const found = runLaunchProblems(input);
  // No policy yet while the list loads: that is not the person's mistake to point out.
  const checked = policies.isPending ? found.filter((p) => p.path !== 'policy') : found;
  const problems = checked.length > 0 ? checked : problemsOfError(launch.error);
  const blocked = useBlockedReason('researcher', 'launch runs');
  const submit = () => {
    if (found.length === 0 && !blocked) launch.mutate(input);
  };
  return {
    problems,
    valid: found.length === 0,
    blocked,
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
