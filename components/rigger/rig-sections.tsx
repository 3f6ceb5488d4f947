'use client';
// The rig page's header and first stages: the timeline and the baseline (Observe); the diagnosis
// is diagnosis-card.tsx.
import Link from 'next/link';
import { componentsText, isPaperMode } from '../../contracts/rigs.ts';
import { taskHref } from '../tasks/links.ts';
import { ShareButton } from '../team/share-button.tsx';
import { BackLink, ScopedLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { PageHeader } from '../ui/misc.tsx';
import { BandGauge } from './band-gauge.tsx';
import { LiveRunProgress } from './live-run.tsx';
import { rigStatusTone, STAGES, type Stage, stageState } from './model.ts';
import type { Rig } from './use-rig.ts';

export function RigHeader({ rig: r }: { rig: Rig }) {
  return (
    <PageHeader
      eyebrow={<BackLink href="/rigs">Rigs</BackLink>}
      actions={<ShareButton kind="rig" ids={[r.id]} />}
      title={
        <span className="flex items-center gap-3">
          Rig <span className="font-mono text-xl">{r.id}</span>
        </span>
      }
      description={
        <span className="flex flex-wrap items-center gap-2">
          <Badge variant={rigStatusTone(r.status)} data-testid="rig-status">
            {r.status}
          </Badge>
          <span className="font-mono">{r.policy}</span> on{' '}
          <ScopedLink
            href={taskHref(r.bridge, r.displayTaskId)}
            className="font-mono text-primary hover:underline"
          >
            {r.bridge}:{r.taskId}
          </ScopedLink>
          <span>
            · K={r.k} · up to {r.maxIterations} iterations
            {r.constraints.defect ? ` · defect: “${r.constraints.defect}”` : ''}
          </span>
          <span className="flex w-full flex-wrap items-center gap-2 text-xs">
            <Badge variant="outline" data-testid="rig-designer-used" title={r.designerWhy}>
              {r.designer} designer{r.designerModel ? ` (${r.designerModel})` : ''}
            </Badge>
            <span className="text-muted-foreground" data-testid="rig-designer-why">
              {r.designerWhy}
            </span>
            {r.components.length > 0 ? (
              <Badge
                variant={isPaperMode(r.components) ? 'outline' : 'warning'}
                data-testid="rig-components"
              >
                {componentsText(r.components)}
              </Badge>
            ) : null}
          </span>
        </span>
      }
    />
  );
}

const STAGE_CLASS = {
  active: 'border-primary text-primary',
  done: 'bg-secondary',
  pending: 'text-muted-foreground',
} as const;

export function RigTimeline({ current, status }: { current: Stage; status: string }) {
  return (
    <ol className="flex flex-wrap gap-2" data-testid="rig-timeline">
      {STAGES.map((s) => {
        const state = stageState(s.id, current, status);
        return (
          <li
            key={s.id}
            data-testid={`stage-${s.id}`}
            data-state={state}
            className={`rounded-full border px-3 py-1 text-sm ${STAGE_CLASS[state]}`}
          >
            {s.label}
          </li>
        );
      })}
    </ol>
  );
}

export function ObserveCard({
  rig: r,
  diagnosed,
  baselineRate,
  onFinished,
}: {
  rig: Rig;
  diagnosed: boolean;
  baselineRate: number | null;
  onFinished: () => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Observe</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4 text-sm">
        {r.baselineRunId ? (
          <Link
            href={`/runs/${r.baselineRunId}`}
            className="text-primary hover:underline"
            data-testid="baseline-run"
          >
            Baseline run ({r.k} rollouts)
          </Link>
        ) : (
          <span className="text-muted-foreground">Baseline rollouts starting…</span>
        )}
        {r.baselineRunId && !diagnosed ? (
          <LiveRunProgress
            key={r.baselineRunId}
            runId={r.baselineRunId}
            label="Baseline rollouts"
            onFinished={onFinished}
          />
        ) : null}
        {baselineRate !== null ? (
          <BandGauge band={r.constraints.band} rate={baselineRate} testId="baseline-gauge" />
        ) : null}
      </CardContent>
    </Card>
  );
}
