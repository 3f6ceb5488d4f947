'use client';
// Live co-editing above the canvas: start a live draft from the graph on screen (its link goes in
// the URL, ?draft=, to hand on), who else is in it with their colours, and leave.
import { useMutation } from '@tanstack/react-query';
import { Radio, Users } from 'lucide-react';
import { useState } from 'react';
import { useBlockedReason } from '../hooks/use-access.ts';
import type { LiveIdentity } from '../live/identity.ts';
import { setLiveName } from '../live/identity.ts';
import { absolute, CopyField } from '../team/copy-field.tsx';
import { useMe } from '../team/use-me.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { toDraft } from './collab.ts';
import type { Graph } from './model.ts';
import type { LivePeer } from './use-graph-session.ts';

export function LiveBar({
  graph,
  harnessId,
  live,
  onJoin,
  onLeave,
}: {
  graph: Graph;
  harnessId?: string | undefined;
  live: {
    draftId: string | undefined;
    loading: boolean;
    error: string | null;
    people: LivePeer[];
    me: LiveIdentity;
  };
  onJoin: (draftId: string) => void;
  onLeave: () => void;
}) {
  const trpc = useTRPC();
  const local = useMe().data?.mode === 'local';
  const blocked = useBlockedReason('researcher', 'co-edit harnesses');
  const [naming, setNaming] = useState(false);
  const create = useMutation(
    trpc.drafts.create.mutationOptions({ onSuccess: (d) => onJoin(d.id) }),
  );
  if (!live.draftId) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="live-bar">
        <Button
          variant="outline"
          size="sm"
          disabled={create.isPending || live.loading || Boolean(blocked)}
          onClick={() => create.mutate({ graph: toDraft(graph), harnessId: harnessId ?? null })}
          data-testid="live-start"
          title="Edit this graph together: others who open the link see every edit live"
        >
          <Users /> {live.loading ? 'Joining…' : 'Co-edit live'}
        </Button>
        {blocked ? (
          <span className="text-xs text-muted-foreground" data-testid="live-blocked">
            {blocked}
          </span>
        ) : null}
        <ErrorNote error={create.error ?? (live.error ? { message: live.error } : null)} />
      </div>
    );
  }
  const url =
    typeof window === 'undefined'
      ? ''
      : absolute(window.location.pathname + window.location.search);
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-xl border bg-card px-3 py-2 text-sm"
      data-testid="live-bar"
    >
      <span className="flex items-center gap-1.5 font-medium text-success" data-testid="live-on">
        <Radio className="size-4" /> Live draft
      </span>
      <span className="flex items-center gap-1.5" data-testid="live-people">
        <Chip name={`${live.me.name} (you)`} colour={live.me.colour} />
        {live.people.map((p) => (
          <Chip key={p.clientId} name={p.name} colour={p.colour} />
        ))}
      </span>
      {local ? (
        naming ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const name = new FormData(e.currentTarget).get('name');
              if (typeof name === 'string' && name.trim()) setLiveName(name);
              setNaming(false);
            }}
          >
            <Input
              name="name"
              defaultValue={live.me.name}
              className="h-7 w-40"
              aria-label="Your name in live sessions"
              data-testid="live-name"
            />
          </form>
        ) : (
          <button
            type="button"
            className="text-xs underline"
            onClick={() => setNaming(true)}
            data-testid="live-rename"
          >
            Change my name
          </button>
        )
      ) : null}
      <div className="w-96 max-w-full">
        <CopyField value={url} testId="live-link" />
      </div>
      <Button variant="ghost" size="sm" onClick={onLeave} data-testid="live-leave">
        Leave
      </Button>
      {live.error ? <ErrorNote error={{ message: live.error }} testId="live-error" /> : null}
    </div>
  );
}

function Chip({ name, colour }: { name: string; colour: string }) {
  return (
    <span
      className="flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs"
      style={{ borderColor: colour }}
      data-testid="live-person"
    >
      <span className="size-2 rounded-full" style={{ background: colour }} />
      {name}
    </span>
  );
}
