'use client';
// View state lives in the URL so that every screen can be shared in a demo. This hook reads one
// query parameter set and writes patches back with router.replace (no history spam, no reload).
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';

export type UrlPatch = Record<string, string | number | null | undefined>;

export function useUrlState(): {
  get: (key: string) => string | undefined;
  set: (patch: UrlPatch, opts?: { push?: boolean }) => void;
  params: URLSearchParams;
} {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const params = new URLSearchParams(search?.toString() ?? '');

  const set = useCallback(
    (patch: UrlPatch, opts?: { push?: boolean }) => {
      const next = new URLSearchParams(search?.toString() ?? '');
      for (const [key, value] of Object.entries(patch)) {
        if (value === null || value === undefined || value === '') next.delete(key);
        else next.set(key, String(value));
      }
      const qs = next.toString();
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (opts?.push) router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [search, router, pathname],
  );

  return { get: (key) => params.get(key) ?? undefined, set, params };
}
