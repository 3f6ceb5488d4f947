// Server-side existence checks for pages: before a page of one thing renders, it asks the studio's
// own API (with the visitor's cookies, so access is the visitor's) whether the thing exists, and
// answers Next's 404 at once when it does not — no empty shell that finds out seconds later.
// The API is reached at the loopback origin server/http.ts puts on every page request.
import 'server-only';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { AppRouter } from '../../server/api/root.ts';

/** server/http.ts SELF_ORIGIN_HEADER (a client cannot set it: the server overwrites it). */
const SELF_ORIGIN_HEADER = 'x-envharness-self';

export type ServerApi = ReturnType<typeof createTRPCClient<AppRouter>>;

async function serverApi(): Promise<ServerApi | undefined> {
  const h = await headers();
  const origin = h.get(SELF_ORIGIN_HEADER);
  if (!origin) return undefined;
  const cookie = h.get('cookie');
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${origin}/api/trpc`, headers: cookie ? { cookie } : {} })],
  });
}

/** True only when the API answered NOT_FOUND; any other failure is left for the page to show. */
export function isNotFound(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND';
}

/**
 * Renders the not-found page (HTTP 404) when `check` is answered NOT_FOUND, or when it resolves to
 * false (the thing exists but not where the URL says, e.g. an episode of another run).
 */
export async function requireFound(check: (api: ServerApi) => Promise<unknown>): Promise<void> {
  const api = await serverApi();
  if (!api) return;
  let found: unknown;
  try {
    found = await check(api);
  } catch (error) {
    if (isNotFound(error)) notFound();
    return;
  }
  if (found === false) notFound();
}
