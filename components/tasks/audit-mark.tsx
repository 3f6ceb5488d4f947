'use client';
// The task picker's mark of a bridge whose verifier failed its newest audit (the audit page has
// the tasks and episodes); a bridge that passed says so quietly, one never audited says nothing.
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import type { AuditVerdict } from '../../contracts/audit.ts';
import { useTRPC } from '../trpc/client.tsx';

/** Each bridge's newest audit verdict, by bridge name (empty while loading or when unreadable). */
export function useAuditVerdicts(): Map<string, AuditVerdict> {
  const trpc = useTRPC();
  const q = useQuery(trpc.audits.verdicts.queryOptions());
  return new Map((q.data ?? []).map((v) => [v.bridge, v]));
}

export function AuditMark({ verdict }: { verdict: AuditVerdict | undefined }) {
  if (!verdict) return null;
  if (verdict.passed) {
    return (
      <div
        className="mt-2 flex items-center gap-1 text-xs text-muted-foreground"
        data-testid="bridge-audit-passed"
      >
        <ShieldCheck className="size-3.5 text-success" /> Verifier audit passed ({verdict.tasks}{' '}
        task{verdict.tasks === 1 ? '' : 's'})
      </div>
    );
  }
  return (
    <div
      className="mt-2 flex items-center gap-1 rounded-md border border-danger/40 bg-danger-soft px-2 py-1.5 text-xs font-medium text-danger"
      data-testid="bridge-audit-failed"
    >
      <ShieldAlert className="size-3.5" /> Verifier audit failed: {verdict.suspicious} of{' '}
      {verdict.tasks} task{verdict.tasks === 1 ? '' : 's'} suspicious (see Audit)
    </div>
  );
}
