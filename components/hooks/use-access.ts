'use client';
import { useQuery } from '@tanstack/react-query';
import type { RoleName } from '../../contracts/roles.ts';
import { useTRPC } from '../trpc/client.tsx';
import { blockedReason } from './access.ts';

/** Why the signed-in caller may not do `what` (needs `need`), or undefined when they may. */
export function useBlockedReason(need: RoleName, what: string): string | undefined {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  return blockedReason(me.data, need, what);
}
