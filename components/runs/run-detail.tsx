'use client';
import { useQuery } from '@tanstack/react-query';
import { GitCompare, Radio } from 'lucide-react';
import Link from 'next/link';
import { memo } from 'react';
// Journey 5: a run page that streams. Episodes appear as they end; success rate with its interval,
// failure distribution, steps histogram, harness errors and progress update without reload.
import { invalidLoopCutoffText } from '../../contracts/outcomes.ts';
import { isFinalStatus } from '../../contracts/runs.ts';
import { FailureChart } from '../charts/failure-chart.tsx';
import { StepsHistogram } from '../charts/steps-histogram.tsx';
import { SuccessInterval } from '../charts/success-interval.tsx';
import { useThrottled } from '../hooks/use-throttled.ts';
import { isLlmPolicy } from '../llm/format.ts';
import { RunLlmCard } from '../llm/run-llm.tsx';
import { RunSkillBank } from '../skills/run-skill-bank.tsx';
import { taskHref } from '../tasks/links.ts';
import { ShareButton } from '../team/share-button.tsx';
import { shareOf, useMe } from '../team/use-me.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { BackLink, ScopedLink } from '../ui/back-link.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote, PageHeader, Skeleton, Stat } from '../ui/misc.tsx';
import { EpisodesTable } from './episodes-table.tsx';
import { num } from './format.ts';
import { RunBackoff } from './llm-backoff.tsx';
import { RewardVerdictWarning } from './reward-verdict-warning.tsx';
import { RunLineage } from './run-lineage.tsx';
import { RunOutcomeBadge } from './run-outcome.tsx';
import { RunStatus } from './run-status.tsx';
import { useLiveRun } from './use-live-run.ts';

type Run = RouterOutputs['runs']['byId'];

export function RunDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const run = useQuery({
    ...trpc.runs.byId.queryOptions({ id }),
    // Belt and braces: while in flight the summary is also re-read now and then, so the page can
    // never freeze even if the live stream is down.
    refetchInterval: (q) => (q.state.data && !isFinalStatus(q.state.data.status) ? 3000 : false),
  });
  const inFlight = run.data ? !isFinalStatus(run.data.status) : false;
  const live = useLiveRun(id, inFlight);

  if (run.error) return <ErrorNote error={run.error} />;
  if (!run.data) return <Skeleton className="h-96" />;
  const r = run.data;

  return (
    <div>
      <RunHeader run={r} live={inFlight ? live.status : null} />
      <RunLineage lineage={r.lineage} kind={r.kind} />
      <RunStats run={r} />
      <RewardVerdictWarning runId={r.id} />
      {isLlmPolicy(r.policy) ? (
        <>
          <RunBackoff runId={r.id} inFlight={inFlight} />
          <RunLlmCard runId={r.id} inFlight={inFlight} done={r.episodesDone} />
        </>
      ) : null}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Failure distribution</CardTitle>
          </CardHeader>
          <CardContent>
            <RunFailures
              distribution={r.metrics.failureDistribution}
              invalidLoopLimit={r.invalidLoopLimit}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Steps per episode</CardTitle>
          </CardHeader>
          <CardContent>
            <RunHistogram runId={r.id} maxSteps={r.maxSteps} />
          </CardContent>
        </Card>
      </div>
      <Card className="mt-4">
        <CardHeader>
          <CardTitle>Episodes</CardTitle>
        </CardHeader>
        <CardContent>
          <EpisodesTable
            runId={r.id}
            counts={{
              all: r.episodesDone,
              success: r.metrics.successes,
              failure: r.metrics.failures,
              error: r.metrics.errors,
            }}
          />
        </CardContent>
      </Card>
      {r.error ? <ErrorNote error={{ message: r.error }} /> : null}
    </div>
  );
}

/** The run's identity and setup; while in flight, the live stream's state (null once final). */
function RunHeader({ run: r, live }: { run: Run; live: string | null }) {
  const share = shareOf(useMe().data);
  return (
    <PageHeader
      eyebrow={<BackLink href="/runs">Runs</BackLink>}
      title={
        <span className="flex flex-wrap items-center gap-3">
          {r.lineage.name ? <span data-testid="run-title-name">{r.lineage.name}</span> : 'Run'}
          <span className="font-mono text-xl">{r.id}</span>
          <RunOutcomeBadge outcome={r.outcome} errors={r.metrics.errors} done={r.episodesDone} />
        </span>
      }
      description={
        <span className="flex flex-wrap items-center gap-2">
          <Badge variant={r.kind === 'validation' ? 'info' : 'outline'}>{r.kind}</Badge>
          <span className="font-mono">{r.policy}</span> on
          <span className="flex flex-wrap items-center gap-1" data-testid="run-tasks">
            {r.lineage.tasks.map((t, i) => (
              <span key={t.path} className="flex items-center gap-1">
                {i > 0 ? <span aria-hidden>→</span> : null}
                <ScopedLink
                  href={taskHref(t.bridge, t.task)}
                  className="font-mono text-primary hover:underline"
                  data-testid="run-task-link"
                >
                  {t.bridge}:{t.task}
                </ScopedLink>
              </span>
            ))}
          </span>
          {r.spec.env.type !== 'base' ? (
            <Badge variant="accent">harnessed ({r.spec.env.type})</Badge>
          ) : null}
          <RunSkillBank policyOptions={r.policyOptions} />
          <span>
            · seeds {r.seeds[0]}…{r.seeds[r.seeds.length - 1]} · max {r.maxSteps} steps
          </span>
          {r.concurrency !== null ? (
            <span data-testid="run-concurrency" title="Episodes at once, as the launch asked">
              · {r.concurrency} at once
            </span>
          ) : null}
          {r.groupSize > 1 ? (
            <Badge
              variant="info"
              data-testid="run-groups"
              title="GRPO groups: every start seed was played G times with different policy seeds"
            >
              {Math.floor(r.k / r.groupSize)} groups of {r.groupSize} per task
            </Badge>
          ) : null}
          {invalidLoopCutoffText(r.invalidLoopLimit) ? (
            <Badge variant="warning" data-testid="run-cutoff">
              {invalidLoopCutoffText(r.invalidLoopLimit)}
            </Badge>
          ) : null}
        </span>
      }
      actions={
        <>
          <ShareButton kind="run" ids={[r.id]} />
          {live !== null ? (
            <span
              className="flex items-center gap-1.5 text-sm text-info"
              data-testid="live-indicator"
              data-state={live}
            >
              <Radio className="size-4 animate-pulse" />{' '}
              {live === 'pending' ? 'Live' : 'Connecting…'}
            </span>
          ) : null}
          {/* Comparing picks among the project's runs: not for a share-link visitor. */}
          {share ? null : (
            <Button variant="outline" asChild>
              <Link href={`/compare?runs=${r.id}..`}>
                <GitCompare /> Compare…
              </Link>
            </Button>
          )}
        </>
      }
    />
  );
}

function RunStats({ run: r }: { run: Run }) {
  const m = r.metrics;
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-5">
      <Card className="md:col-span-2">
        <CardHeader>
          <CardTitle>Success rate</CardTitle>
        </CardHeader>
        <CardContent>
          <SuccessInterval rate={m.successRate} iv={m.interval} testId="success" />
          <div className="mt-2 text-xs text-muted-foreground" data-testid="scored-count">
            {m.successes} of {m.successes + m.failures} scored episodes succeeded
          </div>
          {r.outcome === 'all_errors' ? (
            <div className="mt-1 text-xs font-medium text-danger" data-testid="all-errors-note">
              Every finished episode errored: nothing was scored.
            </div>
          ) : null}
        </CardContent>
      </Card>
      <Stat
        label="Progress"
        testId="progress"
        value={`${r.episodesDone} / ${r.episodesTotal}`}
        hint={
          <>
            <RunStatus status={r.status} done={r.episodesDone} total={r.episodesTotal} />
            {/* Episodes workers hold now and those waiting (read every 3 s). "Claimed", not
                "running": a run of short episodes claims a few ahead of a free slot. */}
            {isFinalStatus(r.status) ? null : (
              <div
                className="mt-1 tabular-nums"
                data-testid="run-in-flight"
                title="Claimed: taken by a worker, running or about to (a run of short episodes claims a few ahead of a free slot; one of long episodes claims only what its slots hold)."
              >
                {r.counts.running} claimed · {r.counts.queued} queued
              </div>
            )}
          </>
        }
      />
      <Stat
        label="Mean steps"
        testId="mean-steps"
        value={num(m.meanSteps)}
        hint={`successful: ${num(m.meanStepsSuccess)} · mean reward ${num(m.meanReward, 2)}`}
      />
      <Stat
        label="Harness errors"
        testId="harness-errors"
        value={m.errorDistribution.harness ?? 0}
        hint={`all errors: ${m.errors} (kept apart, never scored)`}
      />
    </div>
  );
}

const NO_EPISODES: RouterOutputs['runs']['episodes']['items'] = [];

// The charts are the run page's costly part: while a run streams they are drawn again at most once
// per CHART_MS and after the rows, and not at all when only other parts of the page move.
const CHART_MS = 1000;

const RunHistogram = memo(function RunHistogram({
  runId,
  maxSteps,
}: {
  runId: string;
  maxSteps: number;
}) {
  const trpc = useTRPC();
  const episodes = useQuery(trpc.runs.episodes.queryOptions({ runId, limit: 1000 }));
  const shown = useThrottled(episodes.data?.items ?? NO_EPISODES, CHART_MS);
  return <StepsHistogram episodes={shown} maxSteps={maxSteps} />;
});

const RunFailures = memo(function RunFailures({
  distribution,
  invalidLoopLimit,
}: {
  distribution: Record<string, number>;
  invalidLoopLimit: number | null;
}) {
  const shown = useThrottled(distribution, CHART_MS);
  return <FailureChart distribution={shown} invalidLoopLimit={invalidLoopLimit} />;
});
