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
import { useEffect, useRef, useState } from 'react';
import { isTypingTarget } from '../hooks/keys.ts';
import { readEdgeChanges, readNodeChanges, type Size, toFlowEdges, toFlowNodes } from './flow.ts';
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
  const [selectedEdges, setSelectedEdgesState] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [measured, setMeasured] = useState<Record<string, Size>>({});
  // The selection as of the last event, read by the delete key at once: a key pressed right after
  // a click must not act on the selection of the render before it.
  const current = useRef<{ node: string | null | undefined; edges: string[] }>({
    node: undefined,
    edges: [],
  });
  const setSelectedEdges = (edges: string[]) => {
    current.current.edges = edges;
    setSelectedEdgesState(edges);
  };
  const selectNode = (id: string | null) => {
    current.current.node = id;
    select(id);
  };
  // The URL is the selection's record: when it changes by other means, follow it.
  useEffect(() => {
    current.current.node = selectedId ?? null;
  }, [selectedId]);

  useEffect(() => {
    if (!refusal) return;
    const t = setTimeout(() => setRefusal(null), 4000);
    return () => clearTimeout(t);
  }, [refusal]);

  // Backspace / Delete: exactly the selection.
  const latest = useRef({ graph, run, readOnly });
  latest.current = { graph, run, readOnly };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Backspace' && e.key !== 'Delete') return;
      if (latest.current.readOnly || isTypingTarget(e.target, '.cm-editor')) return;
      const g = latest.current.graph;
      const edges = current.current.edges.filter((id) => g.edges.some((x) => x.id === id));
      const node = g.nodes.find((n) => n.id === current.current.node);
      if (edges.length > 0) {
        e.preventDefault();
        latest.current.run({ type: 'disconnect', ids: edges });
        setSelectedEdges([]);
      } else if (node && node.kind !== 'output') {
        e.preventDefault();
        latest.current.run({ type: 'remove', ids: [node.id] });
        selectNode(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    const edits = readNodeChanges(changes, selectedId);
    for (const id of edits.selection) {
      selectNode(id);
      // Selecting a node ends an edge selection: one kind of thing is selected at a time.
      if (id !== null) setSelectedEdges([]);
    }
    if (Object.keys(edits.moving).length) setDragging((d) => ({ ...d, ...edits.moving }));
    if (Object.keys(edits.measured).length) setMeasured((m) => ({ ...m, ...edits.measured }));
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    if (!changes.some((c) => c.type === 'select')) return;
    const next = readEdgeChanges(changes, current.current.edges).selected;
    setSelectedEdges(next);
    if (next.length > 0 && current.current.node) selectNode(null);
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
      nodes: toFlowNodes(graph, issues, { dragging, selectedId, peers, measured }),
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
