'use client';
// Who this browser tab is in live sessions: a tab id (each tab is one participant), the name others
// see (the account's name or email in team mode; in single-user mode a name the person picks, kept
// in this browser) and a colour derived from the tab id.
import { useSyncExternalStore } from 'react';
import { useMe } from '../team/use-me.ts';

const PALETTE = ['#c2410c', '#0f766e', '#7c3aed', '#be123c', '#1d4ed8', '#4d7c0f', '#a16207'];
const NAME_KEY = 'envharness.live.name';

const TAB_KEY = 'envharness.live.tab';
let tabId: string | undefined;
/** This tab's id: new per tab, kept across its reloads (sessionStorage). */
export function clientId(): string {
  if (tabId) return tabId;
  try {
    tabId = window.sessionStorage.getItem(TAB_KEY) ?? undefined;
  } catch {
    // storage off: an id for this page only
  }
  tabId ??= `t${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36).slice(-4)}`;
  try {
    window.sessionStorage.setItem(TAB_KEY, tabId);
  } catch {
    // as above
  }
  return tabId;
}

export function colourOf(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

const listeners = new Set<() => void>();
function storedName(): string {
  try {
    return window.localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}
export function setLiveName(name: string): void {
  try {
    window.localStorage.setItem(NAME_KEY, name.trim().slice(0, 60));
  } catch {
    // storage off: the name lasts for this page only
  }
  for (const l of listeners) l();
}

export interface LiveIdentity {
  clientId: string;
  name: string;
  colour: string;
}

/** This tab's identity in live sessions. */
export function useLiveIdentity(): LiveIdentity {
  const me = useMe().data;
  const local = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    storedName,
    () => '',
  );
  const id = clientId();
  const account = me?.mode === 'team' && me.user ? me.user.name || me.user.email : '';
  const name = account || local || `Guest ${id.slice(1, 5).toUpperCase()}`;
  return { clientId: id, name, colour: colourOf(id) };
}
