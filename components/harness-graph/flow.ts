// Between the pure model and React Flow, both ways and still pure: the model as React Flow nodes and
// edges (with each node's first issue, the selection and the positions of a drag in flight),
// and React Flow's change lists read back as model edits.
import type { Edge, EdgeChange, NodeChange } from '@xyflow/react';
import { type Graph, NODE_SIZE, type ToSpecResult, type XY } from './model.ts';
import type { FlowNode } from './nodes.tsx';

/** The first issue the spec conversion reports for each node. */
export function issuesByNode(spec: ToSpecResult): Map<string, string> {
  const issues = new Map<string, string>();
  if (!spec.ok)
    for (const i of spec.issues)
      if (i.nodeId && !issues.has(i.nodeId)) issues.set(i.nodeId, i.message);
  return issues;
}

/** Each node's first issue (`issues`: the graph's own and validation's, validation.ts `nodeIssues`). */
export function toFlowNodes(
  graph: Graph,
  issues: Map<string, string>,
  view: {
    dragging: Record<string, XY>;
    selectedId: string | undefined;
    /** Co-editors who selected each node or edge (name and colour). */
    peers?: Map<string, { name: string; colour: string }[]> | undefined;
    /** Sizes React Flow measured. */
    measured?: Record<string, Size>;
  },
): FlowNode[] {
  return graph.nodes.map((n) => {
    const issue = issues.get(n.id);
    const peers = view.peers?.get(n.id);
    return {
      id: n.id,
      type: 'harness',
      position: view.dragging[n.id] ?? n.position,
      // React Flow's own measurement, kept (the minimap draws measured nodes only). Giving sizes
      // up front instead would skip measuring the handles, and edges to them would not draw.
      ...(view.measured?.[n.id] ? { measured: view.measured[n.id] } : {}),
      data: { gnode: n, ...(issue ? { issue } : {}), ...(peers?.length ? { peers } : {}) },
      selected: n.id === view.selectedId,
      deletable: n.kind !== 'output',
      ...(view.measured?.[n.id] ? { measured: view.measured[n.id] } : {}),
    };
  });
}

export function toFlowEdges(
  graph: Graph,
  selectedEdges: string[],
  peers?: Map<string, { name: string; colour: string }[]>,
): Edge[] {
  return graph.edges.map((e) => {
    const peer = peers?.get(e.id)?.[0];
    const label = e.targetHandle === 'env' ? undefined : e.targetHandle;
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      targetHandle: e.targetHandle,
      selected: selectedEdges.includes(e.id),
      animated: false,
      label: peer ? `${label ? `${label} · ` : ''}${peer.name}` : label,
      ...(peer ? { style: { stroke: peer.colour, strokeWidth: 3 } } : {}),
    };
  });
}

export interface Size {
  width: number;
  height: number;
}

export interface NodeEdits {
  /** Positions of nodes being dragged (committed to the model on drag stop). */
  moving: Record<string, XY>;
  /** Node sizes React Flow measured (it hides a node whose size it does not know). */
  measured: Record<string, Size>;
  removed: string[];
  /**
   * The selection after the changes, as at most one edit: a node id selects it, null clears it.
   * Clicking another node deselects the old one in the same list (in either order): the newly
   * selected node wins.
   */
  selection: (string | null)[];
}

/** React Flow's node changes as model edits; removing the selected node clears the selection. */
export function readNodeChanges(
  changes: NodeChange<FlowNode>[],
  selectedId: string | undefined,
): NodeEdits {
  const edits: NodeEdits = { moving: {}, measured: {}, removed: [], selection: [] };
  let picked: string | undefined;
  let cleared = false;
  for (const c of changes) {
    if (c.type === 'position' && c.position) edits.moving[c.id] = c.position;
    else if (c.type === 'dimensions' && c.dimensions) edits.measured[c.id] = c.dimensions;
    else if (c.type === 'select') {
      if (c.selected) picked = c.id;
      else if (c.id === selectedId) cleared = true;
    } else if (c.type === 'remove') edits.removed.push(c.id);
  }
  if (selectedId && edits.removed.includes(selectedId)) {
    cleared = true;
    if (picked === selectedId) picked = undefined;
  }
  if (picked !== undefined) edits.selection.push(picked);
  else if (cleared) edits.selection.push(null);
  return edits;
}

/** Removed edges, and the edge selection after the changes (kept out of the model's history). */
export function readEdgeChanges(
  changes: EdgeChange[],
  selected: string[],
): { removed: string[]; selected: string[] } {
  const removed = changes.filter((c) => c.type === 'remove').map((c) => c.id);
  let next = selected;
  for (const c of changes) {
    if (c.type === 'select')
      next = c.selected
        ? [...next.filter((x) => x !== c.id), c.id]
        : next.filter((x) => x !== c.id);
  }
  return { removed, selected: next };
}

/** Where a new node goes: below everything already placed, so it never covers a node or an edge. */
export function newNodePosition(graph: Graph): XY {
  const xs = graph.nodes.map((n) => n.position.x);
  const bottom = Math.max(0, ...graph.nodes.map((n) => n.position.y + NODE_SIZE[n.kind].height));
  return { x: Math.min(0, ...xs), y: bottom + 60 };
}
