'use client';
// A harness with the version on screen (?version=N, else the newest) as an editor graph, and saving
// the edited graph as the next version (versions never change; saving makes a new one).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { laidOut } from '../harness-graph/layout.ts';
import { specToGraph } from '../harness-graph/model.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { versionAt } from './model.ts';

export function useHarness(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = useUrlState();
  const harness = useQuery(trpc.harnesses.byId.queryOptions({ id }));
  const versions = harness.data?.versions ?? [];
  const current = versionAt(versions, url.get('version'));
  const initial = useMemo(
    () => (current ? laidOut(specToGraph(current.spec)) : undefined),
    [current],
  );
  const [name, setName] = useState('');
  const save = useMutation(
    trpc.harnesses.saveVersion.mutationOptions({
      onSuccess: async (v) => {
        setName('');
        await queryClient.invalidateQueries({ queryKey: trpc.harnesses.byId.queryKey({ id }) });
        url.set({ version: v.version });
      },
    }),
  );
  const nextName = `v${versions.length + 1}`;
  return {
    harness,
    versions,
    current,
    initial,
    name,
    setName,
    nextName,
    save,
    saveVersion: (spec: HarnessSpec) =>
      save.mutate({ harnessId: id, name: name || nextName, spec }),
  };
}
