// Keyboard shortcuts read as plain functions, shared by the editor (undo/redo) and the trajectory
// viewer (j/k, Esc): a key typed into a text field is text, never a shortcut.

interface TargetLike {
  tagName: string;
  isContentEditable: boolean;
  closest?: (selector: string) => unknown;
}

/** Whether the key goes into a text field (an input, a textarea, editable content, or `within`). */
export function isTypingTarget(target: EventTarget | null, within?: string): boolean {
  const t = target as TargetLike | null;
  if (!t || typeof t.tagName !== 'string') return false;
  return (
    t.tagName === 'INPUT' ||
    t.tagName === 'TEXTAREA' ||
    t.isContentEditable ||
    Boolean(within && t.closest?.(within))
  );
}

interface KeyLike {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
}

/** Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl/⌘+Y redo. */
export function historyKey(e: KeyLike): 'undo' | 'redo' | null {
  const mod = e.metaKey || e.ctrlKey;
  if (!mod) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y') return 'redo';
  return null;
}
