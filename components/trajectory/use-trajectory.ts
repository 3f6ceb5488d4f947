'use client';
// The trajectory viewer's state: the episode and its step flags, the filtered step list (virtualised:
// only visible rows render and only their pages are fetched), the selected step (?step=) with its
// state view, and the keys — j/k move the cursor, Esc goes back to the run.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRouter } from 'next/navigation';
import { useEffect, useEffectEvent, useRef } from 'react';
import { isTypingTarget } from '../hooks/keys.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { UNBATCHED, useTRPC } from '../trpc/client.tsx';
import { browserData } from './observation-data.tsx';
import { useStepPages } from './step-pages.ts';
import { filterOf, moveStep, type StepRows, selectedStep, stepRows } from './viewer.ts';

export const ROW = 44;

export function useTrajectory(runId: string, episodeId: string) {
  const trpc = useTRPC();
  const url = useUrlState();
  const episode = useQuery(trpc.runs.episode.queryOptions({ id: episodeId }));
  const flags = useQuery(trpc.runs.stepFlags.queryOptions({ episodeId }, UNBATCHED));
  const filter = filterOf(url.get('filter'));
  const total = flags.data?.total ?? episode.data?.episode.steps ?? 0;
  const filtered = filter && flags.data ? flags.data[filter] : null;
  const rows = stepRows(filtered, total);
  const selected = selectedStep(url.get('step'), filtered, total);

  const list = useStepList(episodeId, rows, total, selected);
  const step = list.steps.get(selected);
  const state = useQuery({
    ...trpc.runs.stateAt.queryOptions({ episodeId, step: selected }, UNBATCHED),
    enabled: Boolean(step) && step?.state === undefined,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const shot = useQuery({
    ...trpc.runs.screenshotAt.queryOptions({ episodeId, step: selected }, UNBATCHED),
    enabled: Boolean(browserData(step?.observation.data)),
    staleTime: Number.POSITIVE_INFINITY,
  });

  // Key presses can come faster than renders: the cursor moves with each press, not each render.
  const cursor = useRef(selected);
  useEffect(() => {
    cursor.current = selected;
  }, [selected]);
  const select = (index: number) => {
    cursor.current = index;
    url.set({ step: index });
  };
  const router = useRouter();
  useStepKeys({
    move: (key) => {
      const next = moveStep(rows, cursor.current, key);
      if (next !== null) select(next);
    },
    back: () => router.push(`/runs/${runId}`),
  });

  return {
    episode,
    flags,
    filter,
    total,
    rows,
    selected,
    select,
    setFilter: url.set,
    list,
    step,
    state,
    shot,
  };
}

/** The virtual rows on screen, the steps they show (and the selected one), the selection in view. */
function useStepList(episodeId: string, rows: StepRows, total: number, selected: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const visible = items.map((v) => rows.indexAt(v.index));
  const steps = useStepPages(episodeId, total > 0 ? [...visible, selected] : []);

  // Keep the selected row in view when it changes by keyboard or deep link.
  const selectedPos = rows.posOf(selected);
  const count = rows.count;
  useEffect(() => {
    if (selectedPos >= 0 && count > 0) virtualizer.scrollToIndex(selectedPos, { align: 'auto' });
  }, [selectedPos, count, virtualizer]);

  return { scrollRef, items, totalSize: virtualizer.getTotalSize(), steps };
}

/** j/k and Esc on the page (not in a text field, not with a modifier). */
function useStepKeys(on: { move: (key: 'j' | 'k') => void; back: () => void }) {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (isTypingTarget(e.target)) return;
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    if (e.key === 'j' || e.key === 'k') {
      e.preventDefault();
      on.move(e.key);
    } else if (e.key === 'Escape') {
      on.back();
    }
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}

export type Trajectory = ReturnType<typeof useTrajectory>;
