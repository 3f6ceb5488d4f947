'use client';
// The editor asks the server whether its spec runs (harnesses.validate: parse, tasks, hooks compiled,
// Stage set-up, a dry episode), debounced so typing sends one request after a pause. The answer is
// shared through a context with what the editor renders: the nodes, the status banner, the side
// panel, and the save control, which stays disabled until the spec on screen is valid.
import { useMutation } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import type { Graph, ToSpecResult } from './model.ts';
import {
  type EditorValidation,
  editorValidation,
  type PlacedProblems,
  placeProblems,
} from './validation.ts';

export const VALIDATE_DEBOUNCE_MS = 500;

export interface SpecValidationState {
  validation: EditorValidation;
  /** The problems of the answer on screen, by graph node. */
  placed: PlacedProblems | undefined;
  /** Check now, without waiting for the pause (the "Check hooks" button). */
  checkNow: () => void;
}

export function useSpecValidation(spec: ToSpecResult, graph: Graph): SpecValidationState {
  const trpc = useTRPC();
  const key = useMemo(() => (spec.ok ? JSON.stringify(spec.spec) : null), [spec]);
  const [sent, setSent] = useState<string | null>(null);
  const { mutate, data, error, isPending } = useMutation(trpc.harnesses.validate.mutationOptions());
  const send = useCallback(
    (k: string) => {
      setSent(k);
      mutate({ spec: JSON.parse(k) as unknown });
    },
    [mutate],
  );
  // A timer is a real side effect: the request leaves after the edits pause.
  useEffect(() => {
    if (key === null || key === sent) return;
    const timer = setTimeout(() => send(key), VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, sent, send]);

  // The mutation holds the answer to the latest request only, which is the one for `sent`.
  const answer =
    sent === null || isPending
      ? undefined
      : {
          key: sent,
          ...(data ? { result: data } : {}),
          ...(error ? { error: error.message } : {}),
        };
  const validation = editorValidation(spec, key, answer);
  const result = 'result' in validation ? validation.result : undefined;
  const placed = useMemo(
    () => (result ? placeProblems(graph, result.problems) : undefined),
    [graph, result],
  );
  return { validation, placed, checkNow: () => key !== null && send(key) };
}

export const SpecValidationContext = createContext<SpecValidationState>({
  validation: { state: 'draft' },
  placed: undefined,
  checkNow: () => undefined,
});

/** The editor's validation, for the controls rendered inside it (save, side panel). */
export function useEditorValidation(): SpecValidationState {
  return useContext(SpecValidationContext);
}
