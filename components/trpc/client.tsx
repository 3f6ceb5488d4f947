'use client';
// The studio's only way to the server: tRPC over HTTP (batched queries) and SSE (subscriptions).
// Components import the AppRouter *type* only; no server code reaches the browser bundle.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  splitLink,
} from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { type ReactNode, useState } from 'react';
import type { AppRouter } from '../../server/api/root.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: 1 },
    },
  });
}

/** Per-query option: send this query on its own request (see the links below). */
export const UNBATCHED = { trpc: { context: { skipBatch: true } } } as const;

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === 'subscription',
          true: httpSubscriptionLink({ url: '/api/trpc' }),
          // A slow query (flags of 10,000 steps, a replay) travels alone so it never holds back
          // the fast ones it would otherwise be batched with.
          false: splitLink({
            condition: (op) => op.context.skipBatch === true,
            true: httpLink({ url: '/api/trpc' }),
            false: httpBatchLink({ url: '/api/trpc', maxItems: 20 }),
          }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
