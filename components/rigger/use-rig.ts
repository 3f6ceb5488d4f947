'use client';
// The rig row and a person's review of its candidates. The row is polled while the loop runs (there
// is no rig event stream); rollout progress comes from each run's SSE stream (LiveRunProgress).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { isFinalStatus } from '../../contracts/runs.ts';
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

/** Approve a candidate, or reject it with a reason typed in place (one candidate at a time). */
export function useCandidateReview(onReviewed: () => Promise<unknown>) {
  const trpc = useTRPC();
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const review = useMutation(
    trpc.rigs.review.mutationOptions({
      onSuccess: () => {
        setRejecting(null);
        setReason('');
        return onReviewed();
      },
    }),
  );
  return {
    pending: review.isPending,
    error: review.error,
    rejecting,
    reason,
    setReason,
    approve: (candidateId: string) => review.mutate({ candidateId, decision: 'approve' }),
    startReject: (candidateId: string) => {
      setRejecting(candidateId);
      setReason('');
    },
    confirmReject: (candidateId: string) => {
      if (reason.trim()) review.mutate({ candidateId, decision: 'reject', reason });
    },
  };
}

export type CandidateReview = ReturnType<typeof useCandidateReview>;
