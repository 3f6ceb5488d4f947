'use client';
// Solvability lint, live: once the server says the spec on screen runs, ask it whether the spec can
// still be won (lint.check replays the oracle's plan, re-planned after the Stage, and recorded wins).
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import { type EditorLint, editorLint } from './lint.ts';
import type { ToSpecResult } from './model.ts';
import type { SpecValidationState } from './use-spec-validation.ts';

export function useSpecLint(spec: ToSpecResult, validation: SpecValidationState): EditorLint {
  const trpc = useTRPC();
  const key = useMemo(() => (spec.ok ? JSON.stringify(spec.spec) : null), [spec]);
  const validKey = validation.validation.state === 'valid' ? key : null;
  const [sent, setSent] = useState<string | null>(null);
  const { mutate, data, error, isPending } = useMutation(trpc.lint.check.mutationOptions());
  // A request is a real side effect: it leaves when a new valid spec is on screen.
  useEffect(() => {
    if (validKey === null || validKey === sent) return;
    setSent(validKey);
    mutate({ spec: JSON.parse(validKey) as unknown });
  }, [validKey, sent, mutate]);
  const answer =
    sent === null || isPending
      ? undefined
      : {
          key: sent,
          ...(data ? { result: data } : {}),
          ...(error ? { error: error.message } : {}),
        };
  return editorLint(validKey, answer);
}
