'use client';
// View state lives in the URL so that every screen can be shared in a demo. This hook reads one
// query parameter set and writes patches back with router.replace (no history spam, no reload).
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef } from 'react';

export type UrlPatch = Record<string, string | number | null | undefined>;

/** `base` (a query string) with `patch` applied: an empty value removes its key. */
export function patchedQuery(base: string, patch: UrlPatch): string {
  const next = new URLSearchParams(base);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next.toString();
}

/** How long a written query string is built on before the router shows it (then: the URL's). */
const PENDING_MS = 2000;

export function useUrlState(): {
  get: (key: string) => string | undefined;
  set: (patch: UrlPatch, opts?: { push?: boolean }) => void;
  params: URLSearchParams;
} {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const current = search?.toString() ?? '';
  const params = new URLSearchParams(current);
  // The query string last written, until a render shows it: two patches in a row (two filters
  // picked at once) build on each other instead of both on the last render's params, which lost
  // the first one.
  const pending = useRef<{ query: string; at: number } | null>(null);
  useEffect(() => {
    if (pending.current?.query === current) pending.current = null;
  }, [current]);

  const set = useCallback(
    (patch: UrlPatch, opts?: { push?: boolean }) => {
      const written = pending.current;
      const base = written && Date.now() - written.at < PENDING_MS ? written.query : current;
      const qs = patchedQuery(base, patch);
      pending.current = { query: qs, at: Date.now() };
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (opts?.push) router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [current, router, pathname],
  );

  return { get: (key) => params.get(key) ?? undefined, set, params };
}
