'use client';
// Fit the view to the graph after an edit that adds or moves nodes. The request is a counter kept in
// state, so the fit runs in an effect after React has committed the new nodes and React Flow has
// taken them (its store updater is a child, whose effects run first); React Flow's fitView then
// waits until those nodes are measured before it fits (its fitView queue), so no timer is needed.
import { type FitViewOptions, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useEffectEvent, useState } from 'react';

export function useFitView(): (options: FitViewOptions) => void {
  const flow = useReactFlow();
  const [request, setRequest] = useState<{ n: number; options: FitViewOptions } | null>(null);
  const fitNow = useEffectEvent((options: FitViewOptions) => {
    void flow.fitView(options);
  });
  useEffect(() => {
    if (request) fitNow(request.options);
  }, [request]);
  return useCallback((options) => setRequest((r) => ({ n: (r?.n ?? 0) + 1, options })), []);
}
