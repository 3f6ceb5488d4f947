'use client';
// A person's decision on a candidate or a harness version, shared by the review page, the rig's
// candidate cards and the candidate page. Pending: why approving needs a reason (computed by the
// server from the validation run), a reason box, Approve / Reject. Decided: the decision with who,
// when and why instead of the buttons, and "Reverse decision", which records a new decision with a
// reason. A person without the researcher role sees the buttons disabled, with the reason.
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Check, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import type { ApprovalConcern, DecisionGate, DecisionRecord } from '../../contracts/decisions.ts';
import { ago } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Textarea } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { type DecisionVerb, decisionLabel, decisionRights, needsReason } from './model.ts';

export type Rights = ReturnType<typeof decisionRights>;

/** May this person decide (auth.me: researcher or admin, or the single local user)? */
export function useDecisionRights(): Rights {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  return decisionRights(me.data);
}

/** A recorded decision: verdict, who, when, why, and what the reason answered. */
export function DecisionRecordLine({
  record,
  testId = 'decision-current',
}: {
  record: DecisionRecord;
  testId?: string;
}) {
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid={testId} data-state={record.decision}>
      <div className="flex flex-wrap items-center gap-1">
        <Badge variant={record.decision === 'approve' ? 'success' : 'danger'}>
          {decisionLabel(record.decision)}
        </Badge>{' '}
        <span className="text-muted-foreground">
          by {record.by} · {ago(record.at)}
          {record.reversesId ? ' · reverses an earlier decision' : ''}
        </span>
      </div>
      {record.reason ? (
        <p data-testid="current-reason" className="whitespace-pre-wrap">
          {record.reason}
        </p>
      ) : null}
      {record.concerns.length > 0 ? (
        <p className="text-xs text-muted-foreground">
          Approved despite: {record.concerns.join('; ')}
        </p>
      ) : null}
    </div>
  );
}

/** Why approving needs a reason, one line per concern. */
export function GateConcerns({ concerns }: { concerns: ApprovalConcern[] }) {
  if (concerns.length === 0) return null;
  return (
    <div
      className="rounded-md border border-warning/40 bg-warning-soft p-2 text-sm"
      data-testid="gate-concerns"
    >
      <div className="flex items-center gap-1 font-medium text-warning">
        <AlertTriangle className="size-4" /> Approving needs a reason:
      </div>
      <ul className="ml-5 list-disc">
        {concerns.map((c) => (
          <li key={c.code} data-testid="gate-concern" data-code={c.code}>
            {c.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface DecisionActions {
  pending: boolean;
  error: { message: string } | null;
  decide: (decision: 'approve' | 'reject', reason: string) => void;
  reverse: (reason: string, expectedCurrentId: string) => void;
}

/**
 * The decision block. Remount it (key) on the decision in force so a typed reason does not outlive
 * the decision it was typed for.
 */
export function DecisionPanel({
  gate,
  rights,
  actions,
  approveLabel = 'Approve',
  compact = false,
}: {
  gate: DecisionGate;
  rights: Rights;
  actions: DecisionActions;
  approveLabel?: string;
  compact?: boolean;
}) {
  return (
    <div className="flex flex-col gap-2" data-testid="decision-panel" data-state={gate.state}>
      {gate.current ? (
        <Decided
          gate={gate}
          current={gate.current}
          rights={rights}
          actions={actions}
          compact={compact}
        />
      ) : (
        <Pending
          gate={gate}
          rights={rights}
          actions={actions}
          approveLabel={approveLabel}
          compact={compact}
        />
      )}
      {rights.why ? (
        <p className="text-xs text-muted-foreground" data-testid="decision-rights">
          {rights.why}
        </p>
      ) : null}
      <ErrorNote error={actions.error} />
    </div>
  );
}

function ReasonBox({
  value,
  onChange,
  testId,
  placeholder,
  compact,
  disabled,
}: {
  value: string;
  onChange: (v: string) => void;
  testId: string;
  placeholder: string;
  compact: boolean;
  disabled: boolean;
}) {
  return (
    <Textarea
      data-testid={testId}
      className={cn(compact ? 'h-14' : 'h-24')}
      placeholder={placeholder}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function Pending({
  gate,
  rights,
  actions,
  approveLabel,
  compact,
}: {
  gate: DecisionGate;
  rights: Rights;
  actions: DecisionActions;
  approveLabel: string;
  compact: boolean;
}) {
  const [reason, setReason] = useState('');
  const blank = !reason.trim();
  const blocked = (verb: DecisionVerb) =>
    !rights.allowed || actions.pending || (needsReason(verb, gate.concerns) && blank);
  return (
    <>
      <GateConcerns concerns={gate.concerns} />
      <ReasonBox
        value={reason}
        onChange={setReason}
        testId="decision-reason"
        placeholder={
          gate.concerns.length
            ? 'Why approve or reject it anyway? (required)'
            : 'Why? (required to reject; e.g. success up clearly, steps down, no harness errors)'
        }
        compact={compact}
        disabled={!rights.allowed}
      />
      <div className="flex flex-wrap gap-2">
        <Button
          size={compact ? 'sm' : 'default'}
          variant="success"
          data-testid="approve"
          disabled={blocked('approve')}
          title={rights.why ?? undefined}
          onClick={() => actions.decide('approve', reason)}
        >
          <Check /> {approveLabel}
        </Button>
        <Button
          size={compact ? 'sm' : 'default'}
          variant="danger"
          data-testid="reject"
          disabled={blocked('reject')}
          title={rights.why ?? undefined}
          onClick={() => actions.decide('reject', reason)}
        >
          <X /> Reject
        </Button>
      </div>
    </>
  );
}

function Decided({
  gate,
  current,
  rights,
  actions,
  compact,
}: {
  gate: DecisionGate;
  current: DecisionRecord;
  rights: Rights;
  actions: DecisionActions;
  compact: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const to = current.decision === 'approve' ? 'rejected' : 'approved';
  return (
    <>
      <DecisionRecordLine record={current} testId={compact ? 'approval' : 'decision-current'} />
      {open ? (
        <>
          {to === 'approved' ? <GateConcerns concerns={gate.concerns} /> : null}
          <ReasonBox
            value={reason}
            onChange={setReason}
            testId="reverse-reason"
            placeholder={`Why should it be ${to} after all? (required)`}
            compact={compact}
            disabled={!rights.allowed}
          />
          <div className="flex gap-2">
            <Button
              size="sm"
              variant={to === 'approved' ? 'success' : 'danger'}
              data-testid="reverse-confirm"
              disabled={!rights.allowed || actions.pending || !reason.trim()}
              onClick={() => actions.reverse(reason, current.id)}
            >
              <RotateCcw /> Reverse: {to}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <div>
          <Button
            size="sm"
            variant="outline"
            data-testid="reverse-open"
            disabled={!rights.allowed}
            title={
              rights.why ??
              'A decision is final; reversing it records a new decision with a reason.'
            }
            onClick={() => setOpen(true)}
          >
            <RotateCcw /> Reverse decision
          </Button>
        </div>
      )}
    </>
  );
}
