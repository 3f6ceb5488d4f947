'use client';
// The theme a component that draws its own colours (React Flow, CodeMirror) should use.
import { useTheme } from 'next-themes';
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * 'dark' or 'light', as the page is. The server cannot know the visitor's theme, so this is 'light'
 * there and while the page hydrates, and the real theme from the next render on: a value read from
 * next-themes at hydration would differ from the server's HTML, and React keeps the server's
 * attributes then (a React Flow canvas stayed light in the dark theme).
 */
export function useColorMode(): 'dark' | 'light' {
  const { resolvedTheme } = useTheme();
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return hydrated && resolvedTheme === 'dark' ? 'dark' : 'light';
}
