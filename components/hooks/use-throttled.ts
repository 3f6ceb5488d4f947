'use client';
import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * `value` as a costly view of live data should show it: at most one change per `ms` (the latest
 * value wins), rendered as a transition, so the rows and counts a stream moves are never held
 * behind a chart.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const t = setTimeout(
      () => {
        last.current = Date.now();
        startTransition(() => setShown(value));
      },
      Math.max(0, last.current + ms - Date.now()),
    );
    return () => clearTimeout(t);
  }, [value, shown, ms]);
  return shown;
}
