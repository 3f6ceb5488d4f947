'use client';
// The audit trail: who did what, on what and when — every team-mode mutation (launches, cancels,
// approvals and rejections with their reason, invites, members, share links), newest first, by
// page. People by email; filters by person, kind and date (in the URL); objects link to their page.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';

function summariseDetails(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  return Object.entries(details as Record<string, unknown>)
    .filter(([, v]) => v !== '' && v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function AuditTrail() {
  const trpc = useTRPC();
  const url = useUrlState();
  const me = useQuery(trpc.auth.me.queryOptions());
  const actor = url.get('who');
  const kind = url.get('kind');
  const from = url.get('from');
  const to = url.get('to');
  const filters = {
    ...(actor ? { actor } : {}),
    ...(kind && /^[a-zA-Z]+$/.test(kind) ? { kind } : {}),
    ...(from && DAY.test(from) ? { from } : {}),
    ...(to && DAY.test(to) ? { to } : {}),
  };
  const facets = useQuery(trpc.auth.auditFacets.queryOptions());
  const pages = useInfiniteQuery(
    trpc.auth.audit.infiniteQueryOptions(
      { limit: 50, ...filters },
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
      <div className="mb-3 flex flex-wrap items-end gap-2" data-testid="audit-filters">
        <label htmlFor="audit-person" className="flex flex-col gap-1 text-xs text-muted-foreground">
          Person
          <Select
            id="audit-person"
            className="h-8 w-56"
            value={actor ?? ''}
            onChange={(e) => url.set({ who: e.target.value })}
            data-testid="audit-person"
          >
            <option value="">Everyone</option>
            {(facets.data?.people ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.email ?? p.id}
              </option>
            ))}
          </Select>
        </label>
        <label htmlFor="audit-kind" className="flex flex-col gap-1 text-xs text-muted-foreground">
          Kind
          <Select
            id="audit-kind"
            className="h-8 w-40"
            value={kind ?? ''}
            onChange={(e) => url.set({ kind: e.target.value })}
            data-testid="audit-kind"
          >
            <option value="">All kinds</option>
            {(facets.data?.kinds ?? []).map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </Select>
        </label>
        <label htmlFor="audit-from" className="flex flex-col gap-1 text-xs text-muted-foreground">
          From
          <Input
            id="audit-from"
            type="date"
            className="h-8 w-40"
            value={from ?? ''}
            onChange={(e) => url.set({ from: e.target.value })}
            data-testid="audit-from"
          />
        </label>
        <label htmlFor="audit-to" className="flex flex-col gap-1 text-xs text-muted-foreground">
          To
          <Input
            id="audit-to"
            type="date"
            className="h-8 w-40"
            value={to ?? ''}
            onChange={(e) => url.set({ to: e.target.value })}
            data-testid="audit-to"
          />
        </label>
        {actor || kind || from || to ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => url.set({ who: null, kind: null, from: null, to: null })}
          >
            Clear filters
          </Button>
        ) : null}
      </div>
      {pages.isPending ? (
        <Skeleton className="h-32" />
      ) : pages.error ? (
        <ErrorNote error={pages.error} />
      ) : pages.data.pages[0]?.items.length === 0 ? (
        <EmptyState title="Nothing recorded">
          {Object.keys(filters).length
            ? 'No action matches these filters.'
            : 'Actions appear here as people take them.'}
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
                    <TD className="text-xs" data-testid="audit-who">
                      {row.actorEmail ?? row.actor}
                    </TD>
                    <TD>{row.action}</TD>
                    <TD className="font-mono text-xs">
                      {row.targetHref ? (
                        <Link
                          href={row.targetHref}
                          className="text-primary hover:underline"
                          data-testid="audit-target"
                        >
                          {row.target}
                        </Link>
                      ) : (
                        (row.target ?? '')
                      )}
                    </TD>
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
