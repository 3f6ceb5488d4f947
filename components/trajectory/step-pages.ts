'use client';
// Steps are read a page at a time: only the pages that hold visible rows (and the selected step) are
// fetched, so a 10,000-step trajectory opens as fast as a short one.
import { useQueries } from '@tanstack/react-query';
import type { StepRecord } from '../../contracts/steps.ts';
import { useTRPC } from '../trpc/client.tsx';

export const PAGE = 200;

export function useStepPages(episodeId: string, indices: number[]) {
  const trpc = useTRPC();
  const pages = [...new Set(indices.map((i) => Math.floor(i / PAGE)))].sort((a, b) => a - b);
  const results = useQueries({
    queries: pages.map((p) => ({
      ...trpc.runs.steps.queryOptions({ episodeId, from: p * PAGE, limit: PAGE }),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const byIndex = new Map<number, StepRecord>();
  for (const r of results) for (const s of r.data?.items ?? []) byIndex.set(s.index, s);
  return byIndex;
}
