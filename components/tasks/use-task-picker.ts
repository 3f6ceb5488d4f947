'use client';
// The task picker's state, all in the URL: the bridge (?bridge=, else the first), split, type and
// search text; the matching tasks are read a page of 100 at a time.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';

export function useTaskPicker() {
  const trpc = useTRPC();
  const url = useUrlState();
  const bridges = useQuery(trpc.bridges.list.queryOptions());
  const selected = url.get('bridge') ?? bridges.data?.[0]?.name;
  const split = url.get('split') ?? '';
  const type = url.get('type') ?? '';
  const text = useDeferredValue(url.get('q') ?? '');
  const tasks = useInfiniteQuery({
    ...trpc.tasks.list.infiniteQueryOptions(
      {
        bridge: selected ?? '',
        split: split || undefined,
        type: type || undefined,
        text: text || undefined,
        limit: 100,
      },
      { getNextPageParam: (last) => last.nextCursor },
    ),
    enabled: Boolean(selected),
  });
  return {
    bridges,
    selected,
    bridge: bridges.data?.find((b) => b.name === selected),
    split,
    type,
    query: url.get('q') ?? '',
    set: url.set,
    tasks,
    items: tasks.data?.pages.flatMap((p) => p.items) ?? [],
    total: tasks.data?.pages[0]?.total,
  };
}

export type TaskPickerState = ReturnType<typeof useTaskPicker>;
