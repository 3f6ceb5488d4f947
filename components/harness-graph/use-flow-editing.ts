'use client';
// React Flow's events as model edits: drags move nodes live and commit one `move` on drop,
// connections become commands, and the selection (node in the URL, edges in state) stays out of
// the history. Backspace / Delete remove exactly what is selected — the selected edges if any,
// else the selected node — handled here rather than by React Flow, whose own delete could also
// take a node whose deselection had not reached the URL yet. A refused connection says why, next
// to the pointer.
import type {
  Connection,
  Edge,
  EdgeChange,
  FinalConnectionState,
  NodeChange,
  OnNodeDrag,
} from '@xyflow/react';
import { useEffect, useState } from 'react';
import { isTypingTarget } from '../hooks/keys.ts';
import { readEdgeChanges, readNodeChanges, toFlowEdges, toFlowNodes } from './flow.ts';
import { type Command, canConnect, type Graph, type InputHandle, type XY } from './model.ts';
import type { FlowNode } from './nodes.tsx';

export interface Refusal {
  reason: string;
  x: number;
  y: number;
}

/** Why the pending connection is refused ("occupied", "cycle", "wrong kind"), in a person's words. */
export function refusalText(reason: string): string {
  return `Not connected: ${reason}.`;
}

export function useFlowEditing(args: {
  graph: Graph;
  /** Each node's first issue, shown on it. */
  issues: Map<string, string>;
  run: (cmd: Command) => void;
  selectedId: string | undefined;
  select: (id: string | null) => void;
  /** Co-editors' selections: id -> who. */
  peers?: Map<string, { name: string; colour: string }[]>;
  readOnly?: boolean;
}) {
  const { graph, issues, run, selectedId, select, peers, readOnly } = args;
  const [dragging, setDragging] = useState<Record<string, XY>>({});
  const [selectedEdges, setSelectedEdges] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  useEffect(() => {
    if (!refusal) return;
    const t = setTimeout(() => setRefusal(null), 4000);
    return () => clearTimeout(t);
  }, [refusal]);

  // Backspace / Delete: exactly the selection.
  const selectedNode = graph.nodes.find((n) => n.id === selectedId);
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Backspace' && e.key !== 'Delete') return;
      if (isTypingTarget(e.target, '.cm-editor')) return;
      const edges = selectedEdges.filter((id) => graph.edges.some((x) => x.id === id));
      if (edges.length > 0) {
        e.preventDefault();
        run({ type: 'disconnect', ids: edges });
        setSelectedEdges([]);
      } else if (selectedNode && selectedNode.kind !== 'output') {
        e.preventDefault();
        run({ type: 'remove', ids: [selectedNode.id] });
        select(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [graph.edges, selectedEdges, selectedNode, run, select, readOnly]);

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    const edits = readNodeChanges(changes, selectedId);
    for (const id of edits.selection) {
      select(id);
      // Selecting a node ends an edge selection: one kind of thing is selected at a time.
      if (id !== null) setSelectedEdges([]);
    }
    if (Object.keys(edits.moving).length) setDragging((d) => ({ ...d, ...edits.moving }));
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    if (!changes.some((c) => c.type === 'select')) return;
    const next = readEdgeChanges(changes, selectedEdges).selected;
    setSelectedEdges(next);
    if (next.length > 0 && selectedId) select(null);
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
  const onConnectEnd = (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (!state.toHandle || state.isValid || !state.fromNode || !state.toNode) return;
    // Dragged from an input onto an output: read it the other way round, as React Flow does.
    const fromTarget = state.fromHandle?.type === 'target';
    const check = canConnect(graph, {
      source: fromTarget ? state.toNode.id : state.fromNode.id,
      target: fromTarget ? state.fromNode.id : state.toNode.id,
      targetHandle: fromTarget ? state.fromHandle?.id : state.toHandle.id,
    });
    if (check.ok) return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    setRefusal({ reason: check.reason, x: point?.clientX ?? 0, y: point?.clientY ?? 0 });
  };
  const onNodeDragStop: OnNodeDrag<FlowNode> = (_e, _n, moved) => {
    run({ type: 'move', positions: Object.fromEntries(moved.map((m) => [m.id, m.position])) });
    setDragging({});
  };

  return {
    flow: {
      nodes: toFlowNodes(graph, issues, { dragging, selectedId, peers }),
      edges: toFlowEdges(graph, selectedEdges, peers),
      onNodesChange,
      onEdgesChange,
      onConnect,
      isValidConnection,
      onConnectEnd,
      onNodeDragStop,
    },
    refusal,
    selection: selectedId ? [selectedId, ...selectedEdges] : selectedEdges,
  };
}
