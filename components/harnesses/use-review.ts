'use client';
// What a review compares and records: the version (?version=), its validation run (?candidate=)
// and a baseline run (?baseline=) — each chosen sensibly until picked — the approval gate on the
// run on screen (computed by the server), and the decision or its reversal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { DecisionActions } from './decision.tsx';
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
  // A version filed from a rig candidate was validated by the rig: its run is the gate's.
  const candidateId = pair.candidateId ?? version?.gate.validationRunId ?? undefined;
  const a = useQuery({
    ...trpc.runs.byId.queryOptions({ id: pair.baselineId ?? '' }),
    enabled: Boolean(pair.baselineId),
  });
  const b = useQuery({
    ...trpc.runs.byId.queryOptions({ id: candidateId ?? '' }),
    enabled: Boolean(candidateId),
  });
  const gate = useQuery({
    ...trpc.harnesses.gate.queryOptions({
      harnessVersionId: version?.id ?? '',
      ...(candidateId ? { validationRunId: candidateId } : {}),
    }),
    enabled: Boolean(version),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.harnesses.pathKey() });
  const decide = useMutation(trpc.harnesses.decide.mutationOptions({ onSuccess: refresh }));
  const reverse = useMutation(trpc.harnesses.reverse.mutationOptions({ onSuccess: refresh }));
  const actions: DecisionActions = {
    pending: decide.isPending || reverse.isPending,
    error: decide.error ?? reverse.error,
    decide: (decision, reason) => {
      if (!version) return;
      reverse.reset();
      decide.mutate({
        harnessVersionId: version.id,
        decision,
        reason,
        // The decision rests on the run on screen, and on the pending state the page showed.
        ...(candidateId ? { validationRunId: candidateId } : {}),
        expectedCurrentId: null,
      });
    },
    reverse: (reason, expectedCurrentId) => {
      if (!version) return;
      decide.reset();
      reverse.mutate({ harnessVersionId: version.id, reason, expectedCurrentId });
    },
  };
  return {
    harness,
    versions,
    version,
    ...pair,
    candidateId,
    baseline: a.data,
    candidate: b.data,
    gate,
    pick: url.set,
    actions,
  };
}

export type Review = ReturnType<typeof useReview>;
