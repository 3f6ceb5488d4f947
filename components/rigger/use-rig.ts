'use client';
// The rig row and a person's review of its candidates. The row is polled while the loop runs (there
// is no rig event stream); rollout progress comes from each run's SSE stream (LiveRunProgress).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { isFinalStatus } from '../../contracts/runs.ts';
import type { DecisionActions } from '../harnesses/decision.tsx';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';

export type Rig = RouterOutputs['rigs']['byId'];
export type RigCandidate = Rig['candidates'][number];

export function useRig(id: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const rig = useQuery({
    ...trpc.rigs.byId.queryOptions({ id }),
    // The rig rows are written as each stage ends (no rig event stream): poll them while the loop
    // runs; rollout progress comes from the run's SSE stream (LiveRunProgress).
    refetchInterval: (q) => (q.state.data && isFinalStatus(q.state.data.status) ? false : 1500),
  });
  const refresh = useCallback(
    () => qc.invalidateQueries({ queryKey: trpc.rigs.byId.queryKey({ id }) }),
    [qc, trpc, id],
  );
  return { rig, refresh };
}

/**
 * A person's decision on the rig's candidates: a first approve / reject while pending, or a
 * reversal with a reason. One at a time; an error shows on the candidate it concerns.
 */
export function useCandidateReview(onReviewed: () => Promise<unknown>) {
  const trpc = useTRPC();
  const [target, setTarget] = useState<string | null>(null);
  const review = useMutation(trpc.rigs.review.mutationOptions({ onSuccess: () => onReviewed() }));
  const reverse = useMutation(trpc.rigs.reverse.mutationOptions({ onSuccess: () => onReviewed() }));
  const actionsFor = (candidateId: string): DecisionActions => ({
    pending: review.isPending || reverse.isPending,
    error: target === candidateId ? (review.error ?? reverse.error) : null,
    decide: (decision, reason) => {
      setTarget(candidateId);
      reverse.reset();
      review.mutate({ candidateId, decision, reason, expectedCurrentId: null });
    },
    reverse: (reason, expectedCurrentId) => {
      setTarget(candidateId);
      review.reset();
      reverse.mutate({ candidateId, reason, expectedCurrentId });
    },
  });
  return { actionsFor };
}

export type CandidateReview = ReturnType<typeof useCandidateReview>;
