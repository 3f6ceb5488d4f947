'use client';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import Link from 'next/link';
import { ago } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';

export const STATUS_VARIANT = {
  draft: 'outline',
  approved: 'success',
  rejected: 'danger',
  archived: 'default',
} as const;

export function HarnessList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.harnesses.list.queryOptions());
  return (
    <div>
      <PageHeader
        title="Harnesses"
        description="Stacks of Stage, Contract and Chain around a benchmark task, each saved as named, immutable versions."
        actions={
          <Button asChild>
            <Link href="/harnesses/new" data-testid="new-harness">
              <Plus /> New harness
            </Link>
          </Button>
        }
      />
      <ErrorNote error={list.error} />
      {list.isPending ? <Skeleton className="h-40" /> : null}
      {list.data?.length === 0 ? (
        <EmptyState title="No harnesses yet">Open a task and choose “New harness”.</EmptyState>
      ) : null}
      {list.data && list.data.length > 0 ? (
        <div className="rounded-xl border bg-card">
          <Table>
            <THead>
              <TR>
                <TH>Name</TH>
                <TH>Task</TH>
                <TH>Status</TH>
                <TH>Latest version</TH>
                <TH className="text-right">Versions</TH>
                <TH>Updated</TH>
              </TR>
            </THead>
            <TBody>
              {list.data.map((h) => (
                <TR key={h.id} data-testid="harness-row">
                  <TD>
                    <Link
                      href={`/harnesses/${h.id}`}
                      className="font-medium text-primary hover:underline"
                    >
                      {h.name}
                    </Link>
                  </TD>
                  <TD className="font-mono text-xs">
                    {h.bridge}:{h.taskId}
                  </TD>
                  <TD>
                    <Badge variant={STATUS_VARIANT[h.status]}>{h.status}</Badge>
                  </TD>
                  <TD className="text-sm">
                    {h.versions[0] ? `v${h.versions[0].version} · ${h.versions[0].name}` : '—'}
                  </TD>
                  <TD className="text-right tabular-nums">{h._count.versions}</TD>
                  <TD className="text-xs text-muted-foreground">
                    {ago(new Date(h.updatedAt).toISOString())}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </div>
      ) : null}
    </div>
  );
}
