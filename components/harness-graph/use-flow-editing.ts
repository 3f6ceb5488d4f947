'use client';
// React Flow's events as model edits: drags move nodes live and commit one `move` on drop, deletes
// and connections become commands, and the selection (node in the URL, edges in state) stays out of
// the history.
import type { Connection, Edge, EdgeChange, NodeChange, OnNodeDrag } from '@xyflow/react';
import { useState } from 'react';
import { readEdgeChanges, readNodeChanges, type Size, toFlowEdges, toFlowNodes } from './flow.ts';
import { type Command, canConnect, type Graph, type InputHandle, type XY } from './model.ts';
import type { FlowNode } from './nodes.tsx';

export function useFlowEditing(args: {
  graph: Graph;
  /** Each node's first issue, shown on it. */
  issues: Map<string, string>;
  run: (cmd: Command) => void;
  selectedId: string | undefined;
  select: (id: string | null) => void;
}) {
  const { graph, issues, run, selectedId, select } = args;
  const [dragging, setDragging] = useState<Record<string, XY>>({});
  const [selectedEdges, setSelectedEdges] = useState<string[]>([]);
  const [measured, setMeasured] = useState<Record<string, Size>>({});

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    const edits = readNodeChanges(changes, selectedId);
    for (const id of edits.selection) select(id);
    if (Object.keys(edits.moving).length) setDragging((d) => ({ ...d, ...edits.moving }));
    if (Object.keys(edits.measured).length) setMeasured((m) => ({ ...m, ...edits.measured }));
    if (edits.removed.length) run({ type: 'remove', ids: edits.removed });
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    const { removed } = readEdgeChanges(changes, []);
    if (removed.length) run({ type: 'disconnect', ids: removed });
    if (changes.some((c) => c.type === 'select'))
      setSelectedEdges((s) => readEdgeChanges(changes, s).selected);
  };
  const onConnect = (c: Connection) => {
    if (!c.targetHandle) return;
    run({
      type: 'connect',
      edge: { source: c.source, target: c.target, targetHandle: c.targetHandle as InputHandle },
    });
  };
  const isValidConnection = (c: Connection | Edge) =>
    canConnect(graph, { source: c.source, target: c.target, targetHandle: c.targetHandle }).ok;
  const onNodeDragStop: OnNodeDrag<FlowNode> = (_e, _n, moved) => {
    run({ type: 'move', positions: Object.fromEntries(moved.map((m) => [m.id, m.position])) });
    setDragging({});
  };

  return {
    nodes: toFlowNodes(graph, issues, { dragging, selectedId, measured }),
    edges: toFlowEdges(graph, selectedEdges),
    onNodesChange,
    onEdgesChange,
    onConnect,
    isValidConnection,
    onNodeDragStop,
  };
}
