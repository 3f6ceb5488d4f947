// A Stage's set-up actions as plain functions: how an action reads in the list, the action a typed
// command becomes (through the environment's text tool), and the environment the Stage wraps.
import type { Action } from '../../contracts/spec.ts';
import { type Graph, subtreeSpec, type ToSpecResult } from './model.ts';

export function actionLabel(a: Action): string {
  const values = Object.values(a.args);
  return values.length === 1 && typeof values[0] === 'string'
    ? values[0]
    : `${a.name} ${JSON.stringify(a.args)}`;
}

/** A typed command as an action of the text tool (household's `act{command}` until one is known). */
export function textAction(
  tool: { name: string; arg: string } | null | undefined,
  command: string,
): Action {
  const t = tool ?? { name: 'act', arg: 'command' };
  return { name: t.name, args: { [t.arg]: command } };
}

/** The spec of what the Stage wraps (its `env` input), if that is connected. */
export function wrappedSpec(graph: Graph, stageId: string): ToSpecResult | undefined {
  const edge = graph.edges.find((e) => e.target === stageId && e.targetHandle === 'env');
  return edge ? subtreeSpec(graph, edge.source) : undefined;
}
