'use client';
// The audit trail: who did what, on what and when — every team-mode mutation (launches, cancels,
// approvals and rejections with their reason, invites, share links), newest first, by page.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';

function summariseDetails(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  return Object.entries(details as Record<string, unknown>)
    .filter(([, v]) => v !== '' && v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
}

export function AuditTrail() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  const pages = useInfiniteQuery(
    trpc.auth.audit.infiniteQueryOptions(
      { limit: 50 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const local = me.data?.mode === 'local';
  return (
    <div>
      <PageHeader
        title="Audit trail"
        description={
          local
            ? 'Single-user mode records no audit trail; approvals keep who and when on each harness. Set AUTH_SECRET for team mode.'
            : 'Every change in this project: who did it, when, and to what. Approvals and rejections carry their reason.'
        }
      />
      {pages.isPending ? (
        <Skeleton className="h-32" />
      ) : pages.error ? (
        <ErrorNote error={pages.error} />
      ) : pages.data.pages[0]?.items.length === 0 ? (
        <EmptyState title="Nothing recorded yet">
          Actions appear here as people take them.
        </EmptyState>
      ) : (
        <>
          <Table data-testid="audit-table">
            <THead>
              <TR>
                <TH>When</TH>
                <TH>Who</TH>
                <TH>Action</TH>
                <TH>Target</TH>
                <TH>Details</TH>
              </TR>
            </THead>
            <TBody>
              {pages.data.pages
                .flatMap((p) => p.items)
                .map((row) => (
                  <TR key={row.id} data-testid="audit-row">
                    <TD className="whitespace-nowrap">{new Date(row.at).toLocaleString()}</TD>
                    <TD className="font-mono text-xs">{row.actor}</TD>
                    <TD>{row.action}</TD>
                    <TD className="font-mono text-xs">{row.target ?? ''}</TD>
                    <TD className="text-muted-foreground">{summariseDetails(row.details)}</TD>
                  </TR>
                ))}
            </TBody>
          </Table>
          {pages.hasNextPage ? (
            <Button
              className="mt-3"
              variant="outline"
              size="sm"
              disabled={pages.isFetchingNextPage}
              onClick={() => void pages.fetchNextPage()}
            >
              Load older
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}
