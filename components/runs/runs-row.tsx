'use client';
// One row of the runs list: name and id (with where it comes from), task(s), policy, status with
// progress and outcome, and the numbers.
import Link from 'next/link';
import { FailureBar } from '../charts/failure-bar.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { TD, TR } from '../ui/table.tsx';
import { ago, interval, num, pct, shortId } from './format.ts';
import { RunOutcomeBadge } from './run-outcome.tsx';
import { RunStatus } from './run-status.tsx';

export type RunItem = RouterOutputs['runs']['list']['items'][number];

export function RunRow({
  run: r,
  compact,
  picked,
  onToggle,
}: {
  run: RunItem;
  compact: boolean;
  picked: boolean;
  onToggle: () => void;
}) {
  const m = r.metrics;
  return (
    <TR data-testid="run-row" data-run-id={r.id}>
      {!compact ? (
        <TD>
          <input
            type="checkbox"
            aria-label={`Pick run ${r.id} for comparison`}
            data-testid="pick-run"
            checked={picked}
            onChange={onToggle}
          />
        </TD>
      ) : null}
      <TD className="max-w-56">
        <Link
          href={`/runs/${r.id}`}
          className="block truncate text-primary hover:underline"
          data-testid="run-link"
          title={r.id}
        >
          {r.lineage.name ? (
            <span data-testid="run-name" className="font-medium">
              {r.lineage.name}
            </span>
          ) : (
            <span className="font-mono text-xs">{shortId(r.id)}</span>
          )}
        </Link>
        <div className="mt-0.5 flex flex-wrap items-center gap-1">
          {r.lineage.name ? (
            <span className="font-mono text-[11px] text-muted-foreground">{shortId(r.id)}</span>
          ) : null}
          <Badge variant={r.kind === 'validation' ? 'info' : 'outline'}>{r.kind}</Badge>
          {r.harnessed ? <Badge variant="accent">harnessed</Badge> : null}
        </div>
      </TD>
      {!compact ? (
        <TD className="font-mono text-xs" data-testid="run-task">
          {r.lineage.tasks.map((t, i) => (
            <div key={t.path} className="max-w-52">
              {i > 0 ? '→ ' : ''}
              <BreakAfterColon text={`${t.bridge}:${t.task}`} />
            </div>
          ))}
        </TD>
      ) : null}
      <TD className="max-w-52 font-mono text-xs break-words" title={r.policy}>
        <BreakAfterColon text={r.policy} />
      </TD>
      <TD>
        <RunStatus status={r.status} done={r.episodesDone} total={r.episodesTotal} />
        <div className="mt-1">
          <RunOutcomeBadge outcome={r.outcome} errors={m.errors} done={r.episodesDone} />
        </div>
      </TD>
      <TD className="text-right tabular-nums">
        <div className="font-semibold" data-testid="run-success">
          {pct(m.successRate)}
        </div>
        <div className="text-[11px] whitespace-nowrap text-muted-foreground">
          {m.successRate === null ? '' : interval(m.interval)}
        </div>
      </TD>
      <TD className="text-right tabular-nums">{num(m.meanSteps)}</TD>
      <TD className="w-44 min-w-32">
        <FailureBar distribution={m.failureDistribution} scored={m.successes + m.failures} />
      </TD>
      <TD
        className={`text-right tabular-nums ${m.errors > 0 ? 'font-semibold text-danger' : ''}`}
        data-testid="run-errors"
      >
        {m.errors}
      </TD>
      <TD className="text-xs whitespace-nowrap text-muted-foreground" data-testid="run-started">
        {ago(r.createdAt)}
      </TD>
    </TR>
  );
}

/** `kind:name` that may wrap after its colon, so long ids do not widen the table past the page. */
function BreakAfterColon({ text }: { text: string }) {
  const at = text.indexOf(':') + 1;
  if (at === 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}
