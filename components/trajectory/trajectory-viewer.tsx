'use client';
// Journey 2: the trajectory viewer. A virtualised step list (10,000 steps stay smooth: only visible
// rows render and only their pages are fetched), the selected step in detail, j/k to move, Esc to
// go back, and every step deep-linkable with ?step=N; ?filter= narrows to changed/blocked/invalid.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Ban, Layers, TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { BpeRowMark } from '../bpe/bpe-panel.tsx';
import { useUrlState } from '../hooks/use-url-state.ts';
import { duration, failureLabel, num, outcomeVariant } from '../runs/format.ts';
import { UNBATCHED, useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { cn } from '../ui/cn.ts';
import { ErrorNote, Kbd, PageHeader, Skeleton } from '../ui/misc.tsx';
import { actionText } from './format.ts';
import { LegVerdicts } from './leg-verdicts.tsx';
import { StepDetail } from './step-detail.tsx';
import { useStepPages } from './step-pages.ts';

const FILTERS = [
  { id: '', label: 'All steps' },
  { id: 'changed', label: 'Changed by a layer' },
  { id: 'blocked', label: 'Blocked' },
  { id: 'invalid', label: 'Invalid' },
] as const;
type FilterId = (typeof FILTERS)[number]['id'];

const ROW = 44;

export function TrajectoryViewer({ runId, episodeId }: { runId: string; episodeId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const url = useUrlState();
  const episode = useQuery(trpc.runs.episode.queryOptions({ id: episodeId }));
  const flags = useQuery(trpc.runs.stepFlags.queryOptions({ episodeId }, UNBATCHED));
  const filter = (FILTERS.find((f) => f.id === url.get('filter'))?.id ?? '') as FilterId;

  const total = flags.data?.total ?? episode.data?.episode.steps ?? 0;
  // Row position -> step index. Unfiltered lists map identity without materialising an array.
  const filtered = filter && flags.data ? flags.data[filter] : null;
  const count = filtered ? filtered.length : total;
  const indexAt = (pos: number) => (filtered ? (filtered[pos] ?? 0) : pos);
  const posOf = (index: number) => (filtered ? filtered.indexOf(index) : index);

  const requested = Number(url.get('step') ?? filtered?.[0] ?? 0);
  const selected = Number.isFinite(requested)
    ? Math.max(0, Math.min(requested, Math.max(total - 1, 0)))
    : 0;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const visible = items.map((v) => indexAt(v.index));
  const steps = useStepPages(episodeId, total > 0 ? [...visible, selected] : []);
  const step = steps.get(selected);
  const state = useQuery({
    ...trpc.runs.stateAt.queryOptions({ episodeId, step: selected }, UNBATCHED),
    enabled: Boolean(step) && step?.state === undefined,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });

  // Key presses can come faster than renders: the cursor moves with each press, not each render.
  const cursor = useRef(selected);
  const synced = useRef(selected);
  if (synced.current !== selected) {
    synced.current = selected;
    cursor.current = selected;
  }
  const select = (index: number) => {
    cursor.current = index;
    url.set({ step: index });
  };

  // Keep the selected row in view when it changes by keyboard or deep link.
  const selectedPos = posOf(selected);
  useEffect(() => {
    if (selectedPos >= 0 && count > 0) virtualizer.scrollToIndex(selectedPos, { align: 'auto' });
  }, [selectedPos, count, virtualizer]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (
        target &&
        (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)
      )
        return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        const pos = posOf(cursor.current);
        const nextPos = e.key === 'j' ? (pos < 0 ? 0 : pos + 1) : pos - 1;
        if (nextPos >= 0 && nextPos < count) select(indexAt(nextPos));
      } else if (e.key === 'Escape') {
        router.push(`/runs/${runId}`);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const ep = episode.data?.episode;
  const flagSets = {
    changed: new Set(flags.data?.changed),
    blocked: new Set(flags.data?.blocked),
    invalid: new Set(flags.data?.invalid),
  };

  return (
    <div>
      <PageHeader
        eyebrow={
          <Link href={`/runs/${runId}`} className="hover:underline">
            ← Run {runId}
          </Link>
        }
        title={
          ep ? (
            <span className="flex flex-wrap items-center gap-3">
              <span className="font-mono">{ep.taskId}</span>
              <span className="text-base font-normal text-muted-foreground">seed {ep.seed}</span>
              <Badge variant={outcomeVariant(ep.outcome)} data-testid="episode-outcome">
                {ep.outcome ?? ep.status}
              </Badge>
            </span>
          ) : (
            'Trajectory'
          )
        }
        description={
          ep ? (
            <span data-testid="episode-summary">
              {ep.steps} agent steps · reward {num(ep.reward, 2)} · {duration(ep.durationMs)}
              {ep.failureCategory ? ` · ${failureLabel(ep.failureCategory)}` : ''}
              {ep.errorMessage ? ` · ${ep.errorKind} error: ${ep.errorMessage}` : ''}
              {episode.data ? ` · policy ${episode.data.run.policy}` : ''}
            </span>
          ) : null
        }
        actions={
          <div className="flex items-center gap-1 text-xs text-muted-foreground">
            <Kbd>j</Kbd>/<Kbd>k</Kbd> next / previous step · <Kbd>Esc</Kbd> back to the run
          </div>
        }
      />
      <ErrorNote error={episode.error ?? flags.error} />
      {ep ? <LegVerdicts verdicts={ep.legVerdicts} spec={episode.data?.spec} /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(320px,420px)_1fr]">
        <div className="flex min-w-0 flex-col rounded-xl border bg-card">
          <div
            className="flex flex-wrap gap-1 border-b p-2"
            role="tablist"
            aria-label="Step filter"
          >
            {FILTERS.map((f) => {
              const n = f.id ? flags.data?.[f.id].length : total;
              return (
                <button
                  type="button"
                  role="tab"
                  key={f.id}
                  aria-selected={f.id === filter}
                  data-testid={`step-filter-${f.id || 'all'}`}
                  onClick={() =>
                    url.set({
                      filter: f.id,
                      step: f.id && flags.data ? (flags.data[f.id][0] ?? null) : selected,
                    })
                  }
                  className={cn(
                    'rounded-md px-2.5 py-1 text-xs text-muted-foreground hover:bg-muted',
                    f.id === filter && 'bg-muted font-medium text-foreground',
                  )}
                >
                  {f.label} <span className="tabular-nums">{n ?? '…'}</span>
                </button>
              );
            })}
          </div>
          <div
            ref={scrollRef}
            className="h-[calc(100vh-260px)] min-h-[360px] overflow-auto"
            data-testid="step-list"
            data-count={count}
          >
            {flags.isPending ? <Skeleton className="m-3 h-40" /> : null}
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((v) => {
                const index = indexAt(v.index);
                const s = steps.get(index);
                const active = index === selected;
                return (
                  <button
                    type="button"
                    key={v.key}
                    data-testid="step-row"
                    data-index={index}
                    aria-current={active ? 'true' : undefined}
                    onClick={() => select(index)}
                    className={cn(
                      'absolute left-0 flex w-full items-center gap-2 border-b px-3 text-left text-sm hover:bg-muted/60',
                      active && 'bg-accent hover:bg-accent',
                    )}
                    style={{ top: v.start, height: ROW }}
                  >
                    <span className="w-12 shrink-0 text-xs text-muted-foreground tabular-nums">
                      #{index}
                    </span>
                    <span className="min-w-0 flex-1 truncate font-mono text-xs">
                      {s ? actionText(s.action) : <span className="text-muted-foreground">…</span>}
                    </span>
                    <BpeRowMark meta={s?.meta} />
                    {flagSets.blocked.has(index) ? (
                      <Ban
                        className="size-3.5 shrink-0 text-danger"
                        aria-label="blocked"
                        data-testid="row-blocked"
                      />
                    ) : null}
                    {flagSets.invalid.has(index) ? (
                      <TriangleAlert
                        className="size-3.5 shrink-0 text-warning"
                        aria-label="invalid"
                      />
                    ) : null}
                    {flagSets.changed.has(index) ? (
                      <Layers
                        className="size-3.5 shrink-0 text-primary"
                        aria-label="changed by a layer"
                      />
                    ) : null}
                    {s && s.reward !== 0 ? (
                      <span className="shrink-0 text-xs font-medium text-success tabular-nums">
                        +{s.reward}
                      </span>
                    ) : null}
                  </button>
                );
              })}
            </div>
            {flags.data && count === 0 ? (
              <p className="p-4 text-sm text-muted-foreground">No step matches this filter.</p>
            ) : null}
          </div>
        </div>
        <div className="min-w-0">
          {step ? (
            <StepDetail
              step={step}
              state={{
                pending: state.isPending || state.data?.step !== selected,
                value: state.data?.state,
                ...(state.error ? { error: state.error.message } : {}),
              }}
            />
          ) : total === 0 && flags.data ? (
            <p className="text-sm text-muted-foreground">This episode has no agent steps.</p>
          ) : (
            <Skeleton className="h-96" />
          )}
        </div>
      </div>
    </div>
  );
}
