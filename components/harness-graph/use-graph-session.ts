'use client';
// The graph being edited, as a session (collab.ts): commands on screen at once, undo/redo per
// person, and — when the URL names a live draft (?draft=) — sent to the server, which orders them;
// the draft's stream brings everyone's ordered edits (and who is there, with their selection) back.
// A new initial graph (another version loaded) starts a fresh session; Ctrl/⌘+Z and Ctrl/⌘+Shift+Z
// (or Y) undo and redo anywhere on the page except in a text field or the code editor.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Presence } from '../../contracts/draft.ts';
import { historyKey, isTypingTarget } from '../hooks/keys.ts';
import { useLiveIdentity } from '../live/identity.ts';
import { UNBATCHED, useTRPC, useTRPCClient } from '../trpc/client.tsx';
import {
  dropSent,
  fromDraft,
  initSession,
  localEdit,
  receive,
  type Session,
  takeUnsent,
  undoStep,
} from './collab.ts';
import type { Command, Graph } from './model.ts';

class SessionStore {
  private listeners = new Set<() => void>();
  constructor(public s: Session) {}
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  get = () => this.s;
  private pending: ReturnType<typeof setTimeout> | undefined;
  /**
   * `later`: React hears of it after the current task, so a request started in this event goes
   * out before the (costly) render of the edit here.
   */
  set(next: Session, o: { later?: boolean } = {}) {
    if (next === this.s) return;
    this.s = next;
    if (o.later) {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.notify();
      }, 0);
    } else this.notify();
  }
  private notify() {
    for (const l of this.listeners) l();
  }
}

const HEARTBEAT_MS = 4000;

/**
 * When this tab made each edit it sent and when others' edits arrived (epoch ms, one clock per
 * machine): what the co-editing latency is measured from (e2e/coedit.spec.ts), readable in the
 * browser's console as `__envharnessLive` during a demo.
 */
interface LiveTimings {
  sent: { clientId: string; clientSeq: number; at: number }[];
  arrived: { clientId: string; clientSeq: number; at: number }[];
}
function liveTimings(): LiveTimings {
  const w = window as unknown as { __envharnessLive?: LiveTimings };
  w.__envharnessLive ??= { sent: [], arrived: [] };
  const t = w.__envharnessLive;
  if (t.sent.length > 2000) t.sent.splice(0, 1000);
  if (t.arrived.length > 2000) t.arrived.splice(0, 1000);
  return t;
}

export interface LivePeer extends Presence {
  at: number;
}

export function useGraphSession(initial: Graph, draftId: string | undefined) {
  const trpc = useTRPC();
  const me = useLiveIdentity();
  const [store] = useState(() => new SessionStore(initSession(initial)));
  const session = useSyncExternalStore(store.subscribe, store.get, store.get);

  // A new version on screen (no draft): a fresh session. Adjusted while rendering, so the old
  // version's graph never shows with the new one.
  const [loaded, setLoaded] = useState<Graph | null>(initial);
  if (!draftId && loaded !== initial) {
    setLoaded(initial);
    store.set(initSession(initial));
  }

  // ── live draft ──
  const draft = useQuery({
    ...trpc.drafts.byId.queryOptions({ draftId: draftId ?? '' }),
    enabled: Boolean(draftId),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
  });
  const [joined, setJoined] = useState<{ id: string; seq: number } | null>(null);
  if (draftId && draft.data && joined?.id !== draft.data.id) {
    setJoined({ id: draft.data.id, seq: draft.data.seq });
    setLoaded(null);
    store.set(initSession(fromDraft(draft.data.graph), { live: true, seq: draft.data.seq }));
  }
  if (!draftId && joined) {
    setJoined(null);
    store.set({ ...store.s, live: false, pending: [], confirmed: store.s.view });
  }

  const [people, setPeople] = useState<LivePeer[]>([]);
  const [streamError, setStreamError] = useState<string | null>(null);
  const live = useSubscription(
    trpc.drafts.live.subscriptionOptions(
      { draftId: joined?.id ?? '', after: joined?.seq ?? 0 },
      {
        enabled: Boolean(joined),
        onData: (tracked) => {
          const event = tracked.data;
          if (event.type === 'ops') {
            const at = Date.now();
            const timings = liveTimings();
            for (const o of event.ops)
              if (o.clientId !== me.clientId)
                timings.arrived.push({ clientId: o.clientId, clientSeq: o.clientSeq, at });
            store.set(receive(store.s, event.ops, me.clientId));
          } else setPeople(event.people);
          setStreamError(null);
        },
        onError: (e) => setStreamError(e.message),
      },
    ),
  );

  // Sending: one batch in flight at a time, so this tab's edits reach the server in its order. The
  // request starts inside the edit's own event, on a connection of its own (not batched), before
  // React renders the edit here: that render must not delay the others seeing it.
  const client = useTRPCClient();
  const inflight = useRef(false);
  const [sendError, setSendError] = useState<string | null>(null);
  // When the oldest edit not yet sent was made (a batch is as late as its oldest edit).
  const oldestUnsent = useRef<number | null>(null);
  const flush = useCallback(() => {
    if (inflight.current || !joined) return;
    const t = takeUnsent(store.s);
    if (!t) return;
    store.set(t.session, { later: true });
    const made = oldestUnsent.current ?? Date.now();
    oldestUnsent.current = null;
    const timings = liveTimings();
    t.batch.ops.forEach((_, i) => {
      timings.sent.push({ clientId: me.clientId, clientSeq: t.batch.clientSeq + i, at: made });
    });
    inflight.current = true;
    const seqs = new Set(t.batch.ops.map((_, i) => t.batch.clientSeq + i));
    client.drafts.submit
      .mutate({ draftId: joined.id, clientId: me.clientId, ...t.batch }, UNBATCHED.trpc)
      .then(
        () => setSendError(null),
        (e: unknown) => {
          store.set(dropSent(store.s, seqs));
          setSendError(e instanceof Error ? e.message : String(e));
        },
      )
      .finally(() => {
        inflight.current = false;
        flush();
      });
  }, [joined, store, me.clientId, client]);

  const run = useCallback(
    (cmd: Command, coalesceKey?: string) => {
      if (store.s.live) oldestUnsent.current ??= Date.now();
      store.set(localEdit(store.s, cmd, { coalesceKey }), { later: store.s.live });
      flush();
    },
    [store, flush],
  );
  const step = useCallback(
    (which: 'undo' | 'redo') => {
      if (store.s.live) oldestUnsent.current ??= Date.now();
      store.set(undoStep(store.s, which), { later: store.s.live });
      flush();
    },
    [store, flush],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target, '.cm-editor')) return;
      const which = historyKey(e);
      if (!which) return;
      e.preventDefault();
      step(which);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step]);

  return {
    session,
    graph: session.view,
    canUndo: session.undo.length > 0,
    canRedo: session.redo.length > 0,
    run,
    undo: () => step('undo'),
    redo: () => step('redo'),
    load: (graph: Graph) => run({ type: 'replace', graph }),
    live: {
      draftId: joined?.id,
      loading: Boolean(draftId) && !joined,
      error: draft.error?.message ?? streamError ?? sendError,
      status: live.status,
      people: people.filter((p) => p.clientId !== me.clientId),
      me,
    },
  };
}

/** Tells the draft who this tab is and what it selected: on change and as a heartbeat. */
export function usePresence(draftId: string | undefined, selection: string[]) {
  const trpc = useTRPC();
  const me = useLiveIdentity();
  const presence = useMutation(trpc.drafts.presence.mutationOptions());
  const send = useRef(presence.mutate);
  send.current = presence.mutate;
  const key = selection.join(',');
  const mine = useMemo(
    () => ({
      clientId: me.clientId,
      name: me.name,
      colour: me.colour,
      selection: key ? key.split(',') : [],
    }),
    [me.clientId, me.name, me.colour, key],
  );
  useEffect(() => {
    if (!draftId) return;
    send.current({ draftId, me: mine });
    const beat = setInterval(() => send.current({ draftId, me: mine }), HEARTBEAT_MS);
    return () => clearInterval(beat);
  }, [draftId, mine]);
  useEffect(() => {
    if (!draftId) return;
    const leave = () => send.current({ draftId, me: mine, leave: true });
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [draftId, mine]);
}
