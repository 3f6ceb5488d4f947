'use client';
// The skill bank pages: every bank (source, size), and one bank's skills with their category, usage,
// source episodes and the history of consolidation edits.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { countOf } from '../ui/plural.ts';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { bankRunId, CATEGORIES, CATEGORY_LABEL, titleOf } from './model.ts';

export function SkillBankList() {
  const trpc = useTRPC();
  const banks = useQuery(trpc.skills.banks.queryOptions());
  return (
    <div>
      <PageHeader
        title="Skill banks"
        description="EvoHarness experience stores: skills extracted from trajectories (strategies from successes, lessons from failures, search priors) and consolidated with validated edits."
        actions={
          <Link
            className="text-sm text-primary underline-offset-4 hover:underline"
            href="/skills/compare"
          >
            Skill-source comparison
          </Link>
        }
      />
      <ErrorNote error={banks.error} />
      {banks.isPending ? <Skeleton className="h-40" /> : null}
      {banks.data && banks.data.length === 0 ? (
        <EmptyState title="No skill banks yet">
          Run a comparison (<code>harness skills compare</code>) or extract a bank from a run (
          <code>harness skills extract --run ID</code>).
        </EmptyState>
      ) : null}
      {banks.data && banks.data.length > 0 ? (
        <Table data-testid="bank-list">
          <THead>
            <TR>
              <TH>Name</TH>
              <TH>Source</TH>
              <TH>Skills</TH>
              <TH>Created</TH>
            </TR>
          </THead>
          <TBody>
            {banks.data.map((b) => (
              <TR key={b.id} data-testid="bank-row">
                <TD>
                  <Link className="text-primary hover:underline" href={`/skills/${b.id}`}>
                    {b.name}
                  </Link>
                </TD>
                <TD>
                  <Badge variant={b.source === 'envharness' ? 'accent' : 'outline'}>
                    {b.source}
                  </Badge>
                </TD>
                <TD className="tabular-nums">{b.skills}</TD>
                <TD className="text-xs text-muted-foreground">
                  {new Date(b.createdAt).toLocaleString()}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      ) : null}
    </div>
  );
}

type BankDetail = RouterOutputs['skills']['bank'];
type Skill = BankDetail['skills'][number];

export function SkillBankDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const bank = useQuery(trpc.skills.bank.queryOptions({ id }));
  if (bank.error) return <ErrorNote error={bank.error} />;
  if (!bank.data) return <Skeleton className="h-64" />;
  const { skills, edits, episodeRuns } = bank.data;
  const runId = bankRunId(bank.data.bank.config);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        eyebrow={<Link href="/skills">Skill banks</Link>}
        title={bank.data.bank.name}
        description={`${countOf(skills.length, 'skill')} · source ${bank.data.bank.source}`}
      />
      {CATEGORIES.map((c) => {
        const list = skills.filter((s) => s.category === c);
        if (list.length === 0) return null;
        return (
          <Card key={c} data-testid={`category-${c}`}>
            <CardHeader>
              <CardTitle>
                {CATEGORY_LABEL[c]} ({list.length})
              </CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              {list.map((s) => (
                <SkillCard key={s.id} skill={s} runOf={(e) => episodeRuns[e] ?? runId} />
              ))}
            </CardContent>
          </Card>
        );
      })}
      <EditHistory edits={edits} />
    </div>
  );
}

function SkillCard({
  skill: s,
  runOf,
}: {
  skill: Skill;
  runOf: (episodeId: string) => string | undefined;
}) {
  return (
    <div className="rounded-lg border p-3" data-testid="skill">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium" data-testid="skill-title">
          {s.title}
        </span>
        {s.taskType ? <Badge variant="outline">{s.taskType}</Badge> : null}
        <Badge variant="info" data-testid="skill-uses">
          used {s.uses}×
        </Badge>
      </div>
      {s.description ? <p className="mt-1 text-xs text-muted-foreground">{s.description}</p> : null}
      <p className="mt-1 text-sm">{s.content}</p>
      {s.sourceEpisodeIds.length > 0 ? (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-muted-foreground">
            {s.sourceEpisodeIds.length} source episode
            {s.sourceEpisodeIds.length === 1 ? '' : 's'}
          </summary>
          <ul className="mt-1 flex flex-wrap gap-1">
            {s.sourceEpisodeIds.map((e) => (
              <li key={e}>
                <SourceLink id={e} runId={runOf(e)} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function EditHistory({ edits }: { edits: BankDetail['edits'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>History of edits ({edits.length})</CardTitle>
        <CardDescription>
          Validated consolidation edits: add, update, merge, delete.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol
          className="flex max-h-80 flex-col gap-1 overflow-auto text-xs"
          data-testid="edit-history"
        >
          {edits.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the history is an ordered log
            <li key={i}>
              <Badge variant="outline">{e.op}</Badge>{' '}
              {titleOf(e.after) ?? titleOf(e.before) ?? e.skillId ?? ''}{' '}
              <span className="text-muted-foreground">{e.reason}</span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

/** Recorded source episodes link to the trajectory viewer; an id with no recorded episode is labelled. */
function SourceLink({ id, runId }: { id: string; runId: string | undefined }) {
  if (!runId) {
    return <code className="rounded bg-muted px-1">{id}</code>;
  }
  return (
    <Link
      className="rounded bg-muted px-1 text-primary hover:underline"
      href={`/runs/${runId}/episodes/${id}`}
      data-testid="skill-source"
    >
      {id}
    </Link>
  );
}
