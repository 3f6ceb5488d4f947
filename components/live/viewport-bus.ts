'use client';
// The graph viewport between the editor and "follow me": the editor reports its viewport while the
// tab presents, and applies the presenter's while the tab follows. A tiny in-page bus, no React
// state, so a viewport change re-renders nothing.
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

type Listener = (v: Viewport) => void;
const presenterListeners = new Set<Listener>();
const followerListeners = new Set<Listener>();
let lastLocal: Viewport | null = null;

/** The editor on this tab moved its viewport. */
export function reportViewport(v: Viewport): void {
  lastLocal = v;
  for (const l of presenterListeners) l(v);
}
export function localViewport(): Viewport | null {
  return lastLocal;
}
export function onLocalViewport(l: Listener): () => void {
  presenterListeners.add(l);
  return () => presenterListeners.delete(l);
}

/** A presenter this tab follows moved theirs. */
export function followViewport(v: Viewport): void {
  for (const l of followerListeners) l(v);
}
export function onFollowViewport(l: Listener): () => void {
  followerListeners.add(l);
  return () => followerListeners.delete(l);
}
