// Auto-layout: dagre's layered layout over the model's layout input, left (environments) to right
// (the harness output).
import dagre from '@dagrejs/dagre';
import type { Graph, XY } from './model.ts';
import { layoutInput } from './model.ts';

export function autoLayout(graph: Graph): Record<string, XY> {
  const input = layoutInput(graph);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 90, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of input.nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of input.edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const positions: Record<string, XY> = {};
  for (const n of input.nodes) {
    const laid = g.node(n.id);
    // dagre gives centres; React Flow positions are top-left corners.
    positions[n.id] = { x: Math.round(laid.x - n.width / 2), y: Math.round(laid.y - n.height / 2) };
  }
  return positions;
}

/** A graph with its nodes placed by the auto-layout. */
export function laidOut(graph: Graph): Graph {
  const positions = autoLayout(graph);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, position: positions[n.id] ?? n.position })),
  };
}
