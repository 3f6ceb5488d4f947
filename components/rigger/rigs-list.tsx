'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ago } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';

export function RigsList() {
  const trpc = useTRPC();
  const rigs = useQuery(trpc.rigs.list.queryOptions());
  return (
    <div>
      <PageHeader
        title="Rigs"
        description="EnvRigger runs: observe a policy, diagnose it, write and validate harness candidates. Launch one from a task page."
      />
      <ErrorNote error={rigs.error} />
      {!rigs.data ? (
        <Skeleton className="h-48" />
      ) : rigs.data.length === 0 ? (
        <EmptyState title="No rigs yet">Open a task and choose “Rig this task”.</EmptyState>
      ) : (
        <Table data-testid="rigs-table">
          <THead>
            <TR>
              <TH>Rig</TH>
              <TH>Task</TH>
              <TH>Policy</TH>
              <TH>Designer</TH>
              <TH>Status</TH>
              <TH>Created</TH>
            </TR>
          </THead>
          <TBody>
            {rigs.data.map((r) => (
              <TR key={r.id}>
                <TD>
                  <Link href={`/rigs/${r.id}`} className="font-mono text-primary hover:underline">
                    {r.id.slice(-8)}
                  </Link>
                </TD>
                <TD className="font-mono">
                  {r.bridge}:{r.taskId}
                </TD>
                <TD className="font-mono">{r.policy}</TD>
                <TD>{r.designer}</TD>
                <TD>
                  <Badge
                    variant={
                      r.status === 'completed'
                        ? r.acceptedCandidateId
                          ? 'success'
                          : 'outline'
                        : r.status === 'failed'
                          ? 'danger'
                          : 'info'
                    }
                  >
                    {r.status}
                    {r.status === 'completed'
                      ? r.acceptedCandidateId
                        ? ' · accepted'
                        : ' · none accepted'
                      : ''}
                  </Badge>
                </TD>
                <TD>{ago(r.createdAt)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
