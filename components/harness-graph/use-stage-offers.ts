'use client';
// A Stage's set-up actions being recorded: typed ones are appended; "offer" plays the wrapped
// environment with the actions so far and lists the commands admissible next; picking one appends it
// and plays again (record by playing).
import { useMutation } from '@tanstack/react-query';
import type { Action } from '../../contracts/spec.ts';
import { useTRPC } from '../trpc/client.tsx';
import type { Graph, GraphNode, UpdateFn } from './model.ts';
import { textAction, wrappedSpec } from './stage.ts';

export function useStageOffers(
  node: Extract<GraphNode, { kind: 'stage' }>,
  graph: Graph,
  onUpdate: UpdateFn,
) {
  const trpc = useTRPC();
  const inner = wrappedSpec(graph, node.id);
  // Play the wrapped environment with the current set-up actions to offer what may be typed next.
  const offers = useMutation(trpc.play.replay.mutationOptions());
  const actions = node.data.actions;
  const setActions = (next: Action[]) => onUpdate({ ...node.data, actions: next });
  const textTool = offers.data?.textTool;
  const play = (next: Action[]) => {
    if (inner?.ok) offers.mutate({ spec: inner.spec, seed: 0, actions: next });
  };
  return {
    actions,
    offers,
    canOffer: Boolean(inner?.ok),
    add: (command: string) => setActions([...actions, textAction(textTool, command)]),
    remove: (index: number) => setActions(actions.filter((_, j) => j !== index)),
    offer: () => play(actions),
    pick: (command: string) => {
      const next = [...actions, textAction(textTool, command)];
      setActions(next);
      play(next);
    },
  };
}
