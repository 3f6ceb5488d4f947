'use client';
// The graph being edited, as commands on an undo/redo history (model.ts). A new initial graph
// (another version loaded) replaces the history; Ctrl/⌘+Z and Ctrl/⌘+Shift+Z (or Y) undo and redo
// anywhere on the page except in a text field or the code editor.
import { useCallback, useEffect, useReducer, useState } from 'react';
import { historyKey, isTypingTarget } from '../hooks/keys.ts';
import { apply, type Command, type Graph, type History, initHistory, redo, undo } from './model.ts';

type Action =
  | { type: 'cmd'; cmd: Command; coalesceKey?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'load'; graph: Graph };

function reducer(h: History, a: Action): History {
  switch (a.type) {
    case 'cmd':
      return apply(h, a.cmd, a.coalesceKey ? { coalesceKey: a.coalesceKey } : undefined);
    case 'undo':
      return undo(h);
    case 'redo':
      return redo(h);
    case 'load':
      return initHistory(a.graph);
  }
}

export function useGraphHistory(initial: Graph) {
  const [history, dispatch] = useReducer(reducer, initial, initHistory);
  // Adjusted while rendering (not in an effect), so the old version's graph never shows with the new.
  const [loaded, setLoaded] = useState(initial);
  if (loaded !== initial) {
    setLoaded(initial);
    dispatch({ type: 'load', graph: initial });
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target, '.cm-editor')) return;
      const step = historyKey(e);
      if (!step) return;
      e.preventDefault();
      dispatch({ type: step });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const run = useCallback(
    (cmd: Command, coalesceKey?: string) =>
      dispatch({ type: 'cmd', cmd, ...(coalesceKey ? { coalesceKey } : {}) }),
    [],
  );
  return {
    history,
    graph: history.present,
    run,
    undo: () => dispatch({ type: 'undo' }),
    redo: () => dispatch({ type: 'redo' }),
    load: (graph: Graph) => dispatch({ type: 'load', graph }),
  };
}
