import { describe, expect, it } from 'vitest';
import { historyKey, isTypingTarget } from './keys.ts';

const el = (tagName: string, o: { editable?: boolean; inside?: string } = {}) =>
  ({
    tagName,
    isContentEditable: o.editable ?? false,
    closest: (s: string) => (s === o.inside ? {} : null),
  }) as unknown as EventTarget;

describe('typing targets', () => {
  it('treats inputs, textareas and editable content as text', () => {
    expect(isTypingTarget(el('INPUT'))).toBe(true);
    expect(isTypingTarget(el('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(el('DIV', { editable: true }))).toBe(true);
    expect(isTypingTarget(el('BUTTON'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('treats anything inside the given container as text', () => {
    expect(isTypingTarget(el('SPAN', { inside: '.cm-editor' }), '.cm-editor')).toBe(true);
    expect(isTypingTarget(el('SPAN', { inside: '.cm-editor' }))).toBe(false);
    expect(isTypingTarget(el('SPAN'), '.cm-editor')).toBe(false);
  });
});

describe('history keys', () => {
  const k = (key: string, o: Partial<{ meta: boolean; ctrl: boolean; shift: boolean }> = {}) => ({
    key,
    metaKey: o.meta ?? false,
    ctrlKey: o.ctrl ?? false,
    shiftKey: o.shift ?? false,
  });

  it('undoes on Ctrl or Cmd + Z and redoes with Shift or Y', () => {
    expect(historyKey(k('z', { ctrl: true }))).toBe('undo');
    expect(historyKey(k('z', { meta: true }))).toBe('undo');
    expect(historyKey(k('Z', { ctrl: true, shift: true }))).toBe('redo');
    expect(historyKey(k('y', { ctrl: true }))).toBe('redo');
  });

  it('ignores the letters without a modifier and other chords', () => {
    expect(historyKey(k('z'))).toBeNull();
    expect(historyKey(k('s', { ctrl: true }))).toBeNull();
  });
});
