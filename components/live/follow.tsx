'use client';
// "Follow me": a presenter shares their page (path and query: the selected step, node …) and the
// graph's viewport with everyone in the project; a person who accepts follows along live. Carried
// by tRPC (a mutation per change and a heartbeat, the `follow.presenters` SSE subscription).
import { useMutation } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { Radio, UserRoundCheck } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { FollowState } from '../../contracts/draft.ts';
import { useMe } from '../team/use-me.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { useLiveIdentity } from './identity.ts';
import { followViewport, localViewport, onLocalViewport } from './viewport-bus.ts';

const HEARTBEAT_MS = 5000;

function readFlag(name: string): string | null {
  try {
    return typeof window === 'undefined'
      ? null
      : window.sessionStorage.getItem(`envharness.follow.${name}`);
  } catch {
    return null;
  }
}

function writeFlag(name: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(`envharness.follow.${name}`);
    else window.sessionStorage.setItem(`envharness.follow.${name}`, value);
  } catch {
    // storage off: the state lasts for this page only
  }
}

export function FollowControls() {
  const me = useMe().data;
  if (!me || (me.mode === 'team' && (!me.user || !me.role))) return null;
  return <Follow />;
}

function Follow() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname() ?? '/';
  const search = useSearchParams()?.toString() ?? '';
  const href = search ? `${pathname}?${search}` : pathname;
  const identity = useLiveIdentity();
  const { clientId, name, colour } = identity;
  // Kept for the tab (sessionStorage): a presenter or follower who reloads stays one.
  const [presenting, setPresentingState] = useState(() => readFlag('presenting') === 'true');
  const [presenters, setPresenters] = useState<FollowState[]>([]);
  const [following, setFollowingState] = useState<string | null>(() => readFlag('following'));
  const setPresenting = (on: boolean) => {
    writeFlag('presenting', on ? 'true' : null);
    setPresentingState(on);
  };
  const setFollowing = (id: string | null) => {
    writeFlag('following', id);
    setFollowingState(id);
  };
  const [dismissed, setDismissed] = useState<string[]>([]);
  const present = useMutation(trpc.follow.present.mutationOptions());
  const publish = useRef(present.mutate);
  publish.current = present.mutate;

  // Presenting: every navigation, viewport change (throttled) and a heartbeat.
  useEffect(() => {
    if (!presenting) return;
    const send = (active = true) =>
      publish.current({ clientId, name, colour, href, viewport: localViewport(), active });
    send();
    const beat = setInterval(() => send(), HEARTBEAT_MS);
    let pending: ReturnType<typeof setTimeout> | undefined;
    const off = onLocalViewport(() => {
      pending ??= setTimeout(() => {
        pending = undefined;
        send();
      }, 50);
    });
    return () => {
      clearInterval(beat);
      clearTimeout(pending);
      off();
    };
  }, [presenting, href, clientId, name, colour]);

  const stop = () => {
    setPresenting(false);
    publish.current({ clientId, name, colour, href, viewport: null, active: false });
  };

  useSubscription(
    trpc.follow.presenters.subscriptionOptions(undefined, {
      onData: (list) => setPresenters(list.filter((p) => p.clientId !== clientId)),
    }),
  );

  const leader = presenters.find((p) => p.clientId === following);
  // Following: go where the presenter is, and take their viewport.
  useEffect(() => {
    if (!leader) return;
    if (leader.href !== href) router.push(leader.href, { scroll: false });
    if (leader.viewport) followViewport(leader.viewport);
  }, [leader, href, router]);

  const offer = presenters.find((p) => p.clientId !== following && !dismissed.includes(p.clientId));

  return (
    <div className="flex items-center gap-2">
      {leader ? (
        <span
          className="flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs"
          style={{ borderColor: leader.colour }}
          data-testid="following"
        >
          <UserRoundCheck className="size-3.5" style={{ color: leader.colour }} />
          Following {leader.name}
          <button
            type="button"
            className="ml-1 underline"
            onClick={() => setFollowing(null)}
            data-testid="follow-stop"
          >
            Stop
          </button>
        </span>
      ) : offer ? (
        <span
          className="flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs"
          data-testid="follow-offer"
        >
          <Radio className="size-3.5" style={{ color: offer.colour }} />
          {offer.name} is presenting
          <button
            type="button"
            className="ml-1 font-medium underline"
            onClick={() => setFollowing(offer.clientId)}
            data-testid="follow-accept"
          >
            Follow
          </button>
          <button
            type="button"
            className="underline"
            onClick={() => setDismissed((d) => [...d, offer.clientId])}
          >
            Dismiss
          </button>
        </span>
      ) : null}
      <Button
        variant={presenting ? 'default' : 'ghost'}
        size="sm"
        aria-pressed={presenting}
        onClick={() => (presenting ? stop() : setPresenting(true))}
        data-testid="follow-me"
        title="Let others in this project follow your page and graph view"
      >
        <Radio />
        {presenting ? 'Presenting' : 'Follow me'}
      </Button>
    </div>
  );
}
