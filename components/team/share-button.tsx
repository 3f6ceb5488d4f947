'use client';
// Share: a signed, expiring read-only link to this run, episode, comparison, rig or harness version;
// the thing's active links, each with its expiry, to copy again or revoke (a revoked link opens
// nothing at once). Researchers and admins in team mode; others see why they cannot.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Share2 } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { blockedReason } from '../hooks/access.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterInputs } from '../trpc/types.ts';
import { Button } from '../ui/button.tsx';
import { Select } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { absolute, CopyField } from './copy-field.tsx';
import { useMe } from './use-me.ts';

export type ShareKind = RouterInputs['auth']['createShare']['kind'];

const TTL = [
  { hours: 24, label: '1 day' },
  { hours: 24 * 7, label: '7 days' },
  { hours: 24 * 30, label: '30 days' },
];

const NOUN: Record<ShareKind, string> = {
  run: 'run',
  trajectory: 'episode',
  comparison: 'comparison',
  harnessVersion: 'harness version',
  rig: 'rig',
};

export function formatExpiry(at: string | Date): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ShareButton({ kind, ids }: { kind: ShareKind; ids: string[] }) {
  const me = useMe().data;
  if (!me) return null;
  // Share links are a team-mode feature; a share visitor's page has no Share button at all.
  if (me.mode === 'team' && me.share) return null;
  const why =
    me.mode === 'local'
      ? 'Share links exist in team mode (set AUTH_SECRET): in single-user mode nobody else can open the studio.'
      : blockedReason(me, 'researcher', 'share links');
  if (why) {
    return (
      <Button variant="outline" size="sm" disabled title={why} data-testid="share-button">
        <Share2 /> Share
      </Button>
    );
  }
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="outline" size="sm" data-testid="share-button">
          <Share2 /> Share
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          className="z-50 w-[26rem] rounded-xl border bg-card p-4 text-sm text-card-foreground shadow-lg"
          data-testid="share-panel"
        >
          <SharePanel kind={kind} ids={ids} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function SharePanel({ kind, ids }: { kind: ShareKind; ids: string[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [ttl, setTtl] = useState(24 * 7);
  const shares = useQuery(trpc.auth.shares.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.auth.shares.queryKey() });
  const create = useMutation(trpc.auth.createShare.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.auth.revokeShare.mutationOptions({ onSuccess: refresh }));
  const key = ids.join(',');
  const mine = (shares.data ?? []).filter((s) => s.kind === kind && s.ids.join(',') === key);
  const active = mine.filter((s) => s.active);
  return (
    <div className="flex flex-col gap-3">
      <div>
        <div className="font-medium">Share this {NOUN[kind]}</div>
        <p className="text-xs text-muted-foreground">
          Anyone with the link can open this {NOUN[kind]} read-only, without an account, until it
          expires or you revoke it.
        </p>
      </div>
      <div className="flex items-center gap-2">
        <label className="text-xs text-muted-foreground" htmlFor="share-ttl">
          Expires after
        </label>
        <Select
          id="share-ttl"
          className="h-8 w-28"
          value={ttl}
          onChange={(e) => setTtl(Number(e.target.value))}
          data-testid="share-ttl"
        >
          {TTL.map((t) => (
            <option key={t.hours} value={t.hours}>
              {t.label}
            </option>
          ))}
        </Select>
        <Button
          size="sm"
          disabled={create.isPending}
          onClick={() => create.mutate({ kind, ids, ttlHours: ttl })}
          data-testid="share-create"
        >
          Create link
        </Button>
      </div>
      <ErrorNote error={create.error ?? revoke.error} />
      {create.data ? (
        <div className="flex flex-col gap-1" data-testid="share-new">
          <CopyField value={absolute(create.data.path)} testId="share-link" />
          <span className="text-xs text-muted-foreground" data-testid="share-expiry">
            Expires {formatExpiry(create.data.expiresAt)}
          </span>
        </div>
      ) : null}
      <div>
        <div className="mb-1 text-xs font-medium">Active links ({active.length})</div>
        {active.length === 0 ? (
          <p className="text-xs text-muted-foreground">No active link.</p>
        ) : (
          <ul className="flex flex-col divide-y rounded-lg border" data-testid="share-list">
            {active.map((s) => (
              <li
                key={s.id}
                className="flex items-center gap-2 px-2 py-1.5 text-xs"
                data-testid="share-row"
              >
                <span className="min-w-0 flex-1">
                  expires {formatExpiry(s.expiresAt)}
                  <span className="text-muted-foreground"> · made {formatExpiry(s.createdAt)}</span>
                </span>
                {s.path ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void navigator.clipboard?.writeText(absolute(s.path ?? ''))}
                  >
                    Copy
                  </Button>
                ) : null}
                <Button
                  variant="outline"
                  size="sm"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate({ id: s.id })}
                  data-testid="share-revoke"
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
        {mine.length > active.length ? (
          <p className="mt-1 text-xs text-muted-foreground" data-testid="share-inactive">
            {mine.length - active.length} revoked or expired link
            {mine.length - active.length === 1 ? '' : 's'} open nothing.
          </p>
        ) : null}
      </div>
    </div>
  );
}
