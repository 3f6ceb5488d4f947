'use client';
// The rig launch form's state, checked with the server's schema as it is typed; launching opens the
// new rig's page. A caller whose role may not launch sees why instead of the button.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useBlockedReason } from '../hooks/use-access.ts';
import { chosenPolicy, usablePolicies } from '../runs/launch.ts';
import { useTRPC } from '../trpc/client.tsx';
import { problemsOfError } from '../ui/problems.ts';
import { DEFAULT_RIG_FORM, type RigForm, rigLaunchInput, rigLaunchProblems } from './model.ts';

export function useRigLaunch(bridge: string, task: string) {
  const trpc = useTRPC();
  const router = useRouter();
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge }));
  const usable = usablePolicies(policies.data);
  const [form, setForm] = useState<RigForm>(DEFAULT_RIG_FORM);
  const chosen = chosenPolicy(form.policy, usable);
  const launch = useMutation(
    trpc.rigs.launch.mutationOptions({ onSuccess: ({ rigId }) => router.push(`/rigs/${rigId}`) }),
  );
  const set = <K extends keyof RigForm>(key: K, value: RigForm[K]) => {
    launch.reset();
    setForm((f) => ({ ...f, [key]: value }));
  };
  const input = rigLaunchInput(bridge, task, chosen, form);
  const found = rigLaunchProblems(input);
  // No policy yet while the list loads: that is not the person's mistake to point out.
  const checked = policies.isPending ? found.filter((p) => p.path !== 'policy') : found;
  const problems = checked.length > 0 ? checked : problemsOfError(launch.error);
  const blocked = useBlockedReason('researcher', 'rig a task');
  const submit = () => {
    if (found.length === 0 && !blocked) launch.mutate(input);
  };
  return {
    form,
    set,
    usable,
    chosen,
    launch,
    submit,
    problems,
    valid: found.length === 0,
    blocked,
  };
}
