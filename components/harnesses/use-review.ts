'use client';
// What a review compares and records: the version (?version=), its validation run (?candidate=)
// and a baseline run (?baseline=) — each chosen sensibly until picked — and the decision with its
// reason.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { reviewPair, versionAt } from './model.ts';

export function useReview(id: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = useUrlState();
  const harness = useQuery(trpc.harnesses.byId.queryOptions({ id }));
  const versions = harness.data?.versions ?? [];
  const version = versionAt(versions, url.get('version'));
  const taskRuns = useQuery({
    ...trpc.runs.list.queryOptions({ task: harness.data?.taskId ?? '', limit: 100 }),
    enabled: Boolean(harness.data?.taskId),
  });
  const pair = reviewPair(taskRuns.data?.items ?? [], version?.id, {
    candidate: url.get('candidate'),
    baseline: url.get('baseline'),
  });
  const a = useQuery({
    ...trpc.runs.byId.queryOptions({ id: pair.baselineId ?? '' }),
    enabled: Boolean(pair.baselineId),
  });
  const b = useQuery({
    ...trpc.runs.byId.queryOptions({ id: pair.candidateId ?? '' }),
    enabled: Boolean(pair.candidateId),
  });
  const [reason, setReason] = useState('');
  const decide = useMutation(
    trpc.harnesses.decide.mutationOptions({
      onSuccess: async () => {
        setReason('');
        await queryClient.invalidateQueries({ queryKey: trpc.harnesses.byId.queryKey({ id }) });
      },
    }),
  );
  return {
    harness,
    versions,
    version,
    ...pair,
    baseline: a.data,
    candidate: b.data,
    pick: url.set,
    reason,
    setReason,
    decide,
  };
}

export type Review = ReturnType<typeof useReview>;
