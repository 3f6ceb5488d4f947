'use client';
// Journey 2: the trajectory viewer. A virtualised step list (10,000 steps stay smooth: only visible
// rows render and only their pages are fetched), the selected step in detail, j/k to move, Esc to
// go back, and every step deep-linkable with ?step=N; ?filter= narrows to changed/blocked/invalid.
import type { VirtualItem } from '@tanstack/react-virtual';
import { Ban, Layers, TriangleAlert } from 'lucide-react';
import type { StepRecord } from '../../contracts/steps.ts';
import { BpeRowMark } from '../bpe/bpe-panel.tsx';
import { EpisodeLlmLine } from '../llm/episode-llm.tsx';
import { duration, failureLabel, num, outcomeVariant } from '../runs/format.ts';
import { ShareButton } from '../team/share-button.tsx';
import { BackLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { cn } from '../ui/cn.ts';
import { ErrorNote, Kbd, PageHeader, Skeleton } from '../ui/misc.tsx';
import { actionText } from './format.ts';
import { LegVerdicts } from './leg-verdicts.tsx';
import { StepDetail } from './step-detail.tsx';
import { ROW, type Trajectory, useTrajectory } from './use-trajectory.ts';
import { FILTERS, filterStep } from './viewer.ts';

export function TrajectoryViewer({ runId, episodeId }: { runId: string; episodeId: string }) {
  const t = useTrajectory(runId, episodeId);
  const ep = t.episode.data?.episode;
  return (
    <div>
      <TrajectoryHeader runId={runId} t={t} />
      <ErrorNote error={t.episode.error ?? t.flags.error} />
      {ep ? <EpisodeLlmLine runId={runId} episode={ep} /> : null}
      {ep ? <LegVerdicts verdicts={ep.legVerdicts} spec={t.episode.data?.spec} /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(320px,420px)_1fr]">
        <div className="flex min-w-0 flex-col rounded-xl border bg-card">
          <FilterTabs t={t} />
          <StepList t={t} />
        </div>
        <div className="min-w-0">
          {t.step ? (
            <StepDetail
              step={t.step}
              state={{
                pending: t.state.isPending || t.state.data?.step !== t.selected,
                value: t.state.data?.state,
                ...(t.state.error ? { error: t.state.error.message } : {}),
              }}
              screenshot={{
                pending: t.shot.isPending || t.shot.data?.step !== t.selected,
                value: t.shot.data?.screenshot ?? null,
                ...(t.shot.error ? { error: t.shot.error.message } : {}),
              }}
            />
          ) : t.total === 0 && t.flags.data ? (
            <p className="text-sm text-muted-foreground">This episode has no agent steps.</p>
          ) : (
            <Skeleton className="h-96" />
          )}
        </div>
      </div>
    </div>
  );
}

function TrajectoryHeader({ runId, t }: { runId: string; t: Trajectory }) {
  const ep = t.episode.data?.episode;
  return (
    <PageHeader
      eyebrow={<BackLink href={`/runs/${runId}`}>Run {runId}</BackLink>}
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
            {ep.evaluation?.rule ? ` · verdict by the env's rule ${ep.evaluation.rule}` : ''}
            {t.episode.data ? ` · policy ${t.episode.data.run.policy}` : ''}
          </span>
        ) : null
      }
      actions={
        <div className="flex items-center gap-3">
          <div className="flex items-center gap-1 text-xs text-muted-foreground">
            <Kbd>j</Kbd>/<Kbd>k</Kbd> next / previous step · <Kbd>Esc</Kbd> back to the run
          </div>
          {ep ? <ShareButton kind="trajectory" ids={[ep.id]} /> : null}
        </div>
      }
    />
  );
}

function FilterTabs({ t }: { t: Trajectory }) {
  const flags = t.flags.data;
  return (
    <div className="flex flex-wrap gap-1 border-b p-2" role="tablist" aria-label="Step filter">
      {FILTERS.map((f) => {
        const n = f.id ? flags?.[f.id].length : t.total;
        return (
          <button
            type="button"
            role="tab"
            key={f.id}
            aria-selected={f.id === t.filter}
            data-testid={`step-filter-${f.id || 'all'}`}
            onClick={() => t.setFilter({ filter: f.id, step: filterStep(f.id, flags, t.selected) })}
            className={cn(
              'rounded-md px-2.5 py-1 text-xs text-muted-foreground hover:bg-muted',
              f.id === t.filter && 'bg-muted font-medium text-foreground',
            )}
          >
            {f.label} <span className="tabular-nums">{n ?? '…'}</span>
          </button>
        );
      })}
    </div>
  );
}

function StepList({ t }: { t: Trajectory }) {
  const flags = t.flags.data;
  const flagSets = {
    changed: new Set(flags?.changed),
    blocked: new Set(flags?.blocked),
    invalid: new Set(flags?.invalid),
  };
  return (
    <div
      ref={t.list.scrollRef}
      className="h-[calc(100vh-260px)] min-h-[360px] overflow-auto"
      data-testid="step-list"
      data-count={t.rows.count}
    >
      {t.flags.isPending ? <Skeleton className="m-3 h-40" /> : null}
      <div style={{ height: t.list.totalSize, position: 'relative' }}>
        {t.list.items.map((v) => {
          const index = t.rows.indexAt(v.index);
          return (
            <StepRow
              key={v.key}
              v={v}
              index={index}
              step={t.list.steps.get(index)}
              active={index === t.selected}
              flags={{
                blocked: flagSets.blocked.has(index),
                invalid: flagSets.invalid.has(index),
                changed: flagSets.changed.has(index),
              }}
              onSelect={() => t.select(index)}
            />
          );
        })}
      </div>
      {flags && t.rows.count === 0 ? (
        <p className="p-4 text-sm text-muted-foreground">No step matches this filter.</p>
      ) : null}
    </div>
  );
}

function StepRow({
  v,
  index,
  step: s,
  active,
  flags,
  onSelect,
}: {
  v: VirtualItem;
  index: number;
  step: StepRecord | undefined;
  active: boolean;
  flags: { blocked: boolean; invalid: boolean; changed: boolean };
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      data-testid="step-row"
      data-index={index}
      aria-current={active ? 'true' : undefined}
      onClick={onSelect}
      className={cn(
        'absolute left-0 flex w-full items-center gap-2 border-b px-3 text-left text-sm hover:bg-muted/60',
        active && 'bg-accent hover:bg-accent',
      )}
      style={{ top: v.start, height: ROW }}
    >
      <span className="w-12 shrink-0 text-xs text-muted-foreground tabular-nums">#{index}</span>
      <span className="min-w-0 flex-1 truncate font-mono text-xs">
        {s ? actionText(s.action) : <span className="text-muted-foreground">…</span>}
      </span>
      <BpeRowMark meta={s?.meta} />
      {flags.blocked ? (
        <Ban
          className="size-3.5 shrink-0 text-danger"
          aria-label="blocked"
          data-testid="row-blocked"
        />
      ) : null}
      {flags.invalid ? (
        <TriangleAlert className="size-3.5 shrink-0 text-warning" aria-label="invalid" />
      ) : null}
      {flags.changed ? (
        <Layers className="size-3.5 shrink-0 text-primary" aria-label="changed by a layer" />
      ) : null}
      {s && s.reward !== 0 ? (
        <span className="shrink-0 text-xs font-medium text-success tabular-nums">+{s.reward}</span>
      ) : null}
    </button>
  );
}
