'use client';
// Who is looking at the studio (`auth.me`): the local user, a signed-in member with their role in
// the active project, or a share-link visitor. The shell, the menus and the Share buttons read it.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc/client.tsx';
import type { RouterOutputs } from '../trpc/types.ts';

export type Me = RouterOutputs['auth']['me'];
export type TeamMe = Extract<Me, { mode: 'team' }>;

export function useMe() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 });
}

/** The share-link scope of a visitor, or null (members and the local user). */
export function shareOf(me: Me | undefined): TeamMe['share'] {
  return me?.mode === 'team' ? me.share : null;
}

/** Admin in the active project (team mode). */
export function isTeamAdmin(me: Me | undefined): boolean {
  return me?.mode === 'team' && me.role === 'admin';
}
