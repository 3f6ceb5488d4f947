'use client';
// The rig launch form's state; launching opens the new rig's page.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { chosenPolicy, usablePolicies } from '../runs/launch.ts';
import { useTRPC } from '../trpc/client.tsx';
import { DEFAULT_RIG_FORM, type RigForm, rigLaunchInput } from './model.ts';

export function useRigLaunch(bridge: string, task: string) {
  const trpc = useTRPC();
  const router = useRouter();
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge }));
  const usable = usablePolicies(policies.data);
  const [form, setForm] = useState<RigForm>(DEFAULT_RIG_FORM);
  const set = <K extends keyof RigForm>(key: K, value: RigForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const chosen = chosenPolicy(form.policy, usable);
  const launch = useMutation(
    trpc.rigs.launch.mutationOptions({ onSuccess: ({ rigId }) => router.push(`/rigs/${rigId}`) }),
  );
  const submit = () => launch.mutate(rigLaunchInput(bridge, task, chosen, form));
  return { form, set, usable, chosen, launch, submit };
}
