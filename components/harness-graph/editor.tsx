'use client';
// Journey 3: the harness graph editor. React Flow renders the pure model (model.ts) and reports
// edits, which become commands on an undo/redo history; selection lives in the URL (?node=), out
// of history. The graph is the HarnessSpec: import/export JSON round-trips exactly.
import '@xyflow/react/dist/style.css';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import {
  Boxes,
  Code2,
  Download,
  GitFork,
  LayoutGrid,
  ListOrdered,
  Redo2,
  Undo2,
  Upload,
} from 'lucide-react';
import { useTheme } from 'next-themes';
import {
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { HarnessSpecSchema } from '../../server/harness/spec.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { Button } from '../ui/button.tsx';
import { Textarea } from '../ui/input.tsx';
import { autoLayout } from './layout.ts';
import {
  apply,
  type Command,
  canConnect,
  type Graph,
  graphToSpec,
  type History,
  type InputHandle,
  initHistory,
  NODE_SIZE,
  type NodeKind,
  newNode,
  redo,
  specToGraph,
  undo,
} from './model.ts';
import { type FlowNode, nodeTypes } from './nodes.tsx';
import { SidePanel } from './side-panel.tsx';

type Action =
  | { type: 'cmd'; cmd: Command; coalesceKey?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'load'; graph: Graph };

function reducer(h: History, a: Action): History {
  switch (a.type) {
    case 'cmd':
      return apply(h, a.cmd, a.coalesceKey ? { coalesceKey: a.coalesceKey } : undefined);
    case 'undo':
      return undo(h);
    case 'redo':
      return redo(h);
    case 'load':
      return initHistory(a.graph);
  }
}

/** A graph with its nodes placed by the auto-layout. */
export function laidOut(graph: Graph): Graph {
  const positions = autoLayout(graph);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, position: positions[n.id] ?? n.position })),
  };
}

const PALETTE: {
  kind: Exclude<NodeKind, 'output'>;
  label: string;
  icon: ReactNode;
  hint: string;
}[] = [
  { kind: 'base', label: 'Environment', icon: <Boxes />, hint: 'A benchmark task (a leaf)' },
  {
    kind: 'stage',
    label: 'Stage',
    icon: <ListOrdered />,
    hint: 'Replay set-up actions after reset',
  },
  {
    kind: 'contract',
    label: 'Contract',
    icon: <Code2 />,
    hint: 'Hooks on actions, transitions, observations',
  },
  { kind: 'chain', label: 'Chain', icon: <GitFork />, hint: 'Two or three legs in one episode' },
];

export interface EditorProps {
  initial: Graph;
  /** Rendered in the toolbar's right end (save / create controls), given the current spec. */
  actions?: (state: { spec: ReturnType<typeof graphToSpec>; graph: Graph }) => ReactNode;
  /** Extra panel below the side panel (versions, try it…). */
  below?: (state: { spec: ReturnType<typeof graphToSpec> }) => ReactNode;
}

export function HarnessEditor(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <EditorInner {...props} />
    </ReactFlowProvider>
  );
}

function EditorInner({ initial, actions, below }: EditorProps) {
  const [history, dispatch] = useReducer(reducer, initial, initHistory);
  const graph = history.present;
  const spec = useMemo(() => graphToSpec(graph), [graph]);
  const url = useUrlState();
  const selectedId = url.get('node');
  const [dragging, setDragging] = useState<Record<string, { x: number; y: number }>>({});
  const [selectedEdges, setSelectedEdges] = useState<string[]>([]);
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);
  const flow = useReactFlow();
  const { resolvedTheme } = useTheme();

  // A new initial graph (another version loaded) replaces the history.
  const loaded = useRef(initial);
  useEffect(() => {
    if (loaded.current !== initial) {
      loaded.current = initial;
      dispatch({ type: 'load', graph: initial });
    }
  }, [initial]);

  const run = useCallback(
    (cmd: Command, coalesceKey?: string) =>
      dispatch({ type: 'cmd', cmd, ...(coalesceKey ? { coalesceKey } : {}) }),
    [],
  );

  const issuesByNode = new Map<string, string>();
  if (!spec.ok)
    for (const i of spec.issues)
      if (i.nodeId && !issuesByNode.has(i.nodeId)) issuesByNode.set(i.nodeId, i.message);

  const nodes: FlowNode[] = graph.nodes.map((n) => {
    const issue = issuesByNode.get(n.id);
    return {
      id: n.id,
      type: 'harness',
      position: dragging[n.id] ?? n.position,
      data: issue ? { gnode: n, issue } : { gnode: n },
      selected: n.id === selectedId,
      deletable: n.kind !== 'output',
    };
  });
  const edges: Edge[] = graph.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    targetHandle: e.targetHandle,
    selected: selectedEdges.includes(e.id),
    animated: false,
    label: e.targetHandle === 'env' ? undefined : e.targetHandle,
  }));

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    const moving: Record<string, { x: number; y: number }> = {};
    const removed: string[] = [];
    for (const c of changes) {
      if (c.type === 'position' && c.position) moving[c.id] = c.position;
      else if (c.type === 'select') {
        if (c.selected) url.set({ node: c.id });
        else if (c.id === selectedId) url.set({ node: null });
      } else if (c.type === 'remove') removed.push(c.id);
    }
    if (Object.keys(moving).length) setDragging((d) => ({ ...d, ...moving }));
    if (removed.length) {
      run({ type: 'remove', ids: removed });
      if (selectedId && removed.includes(selectedId)) url.set({ node: null });
    }
  };

  const onEdgesChange = (changes: EdgeChange[]) => {
    const removed = changes.filter((c) => c.type === 'remove').map((c) => c.id);
    if (removed.length) run({ type: 'disconnect', ids: removed });
    for (const c of changes) {
      if (c.type === 'select') {
        setSelectedEdges((s) =>
          c.selected ? [...s.filter((x) => x !== c.id), c.id] : s.filter((x) => x !== c.id),
        );
      }
    }
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

  const addNode = (kind: Exclude<NodeKind, 'output'>) => {
    // New nodes go below everything already placed, so they never cover a node or an edge.
    const xs = graph.nodes.map((n) => n.position.x);
    const bottom = Math.max(0, ...graph.nodes.map((n) => n.position.y + NODE_SIZE[n.kind].height));
    const node = newNode(kind, { x: Math.min(0, ...xs), y: bottom + 60 });
    run({ type: 'add', node });
    url.set({ node: node.id });
    setTimeout(() => flow.fitView({ padding: 0.2, maxZoom: 1, duration: 200 }), 30);
  };

  const layout = () => {
    run({ type: 'move', positions: autoLayout(graph) });
    setTimeout(() => flow.fitView({ padding: 0.2, maxZoom: 1, duration: 200 }), 30);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (
        t &&
        (t.tagName === 'INPUT' ||
          t.tagName === 'TEXTAREA' ||
          t.isContentEditable ||
          t.closest('.cm-editor'))
      )
        return;
      const mod = e.metaKey || e.ctrlKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        dispatch({ type: 'redo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const selected = graph.nodes.find((n) => n.id === selectedId);

  return (
    <div className="flex flex-col gap-3">
      <div
        className="flex flex-wrap items-center gap-2 rounded-xl border bg-card p-2"
        data-testid="graph-toolbar"
      >
        <span className="px-1 text-xs font-medium text-muted-foreground">Add</span>
        {PALETTE.map((p) => (
          <Button
            key={p.kind}
            variant="outline"
            size="sm"
            title={p.hint}
            data-testid={`palette-${p.kind}`}
            onClick={() => addNode(p.kind)}
          >
            {p.icon} {p.label}
          </Button>
        ))}
        <span className="mx-1 h-6 w-px bg-border" />
        <Button
          variant="ghost"
          size="sm"
          data-testid="undo"
          disabled={history.past.length === 0}
          onClick={() => dispatch({ type: 'undo' })}
          title="Undo (Ctrl+Z)"
        >
          <Undo2 /> Undo
        </Button>
        <Button
          variant="ghost"
          size="sm"
          data-testid="redo"
          disabled={history.future.length === 0}
          onClick={() => dispatch({ type: 'redo' })}
          title="Redo (Ctrl+Shift+Z)"
        >
          <Redo2 /> Redo
        </Button>
        <Button variant="ghost" size="sm" data-testid="auto-layout" onClick={layout}>
          <LayoutGrid /> Auto-layout
        </Button>
        <span className="mx-1 h-6 w-px bg-border" />
        <Button
          variant="ghost"
          size="sm"
          data-testid="import-json"
          onClick={() => setDialog('import')}
        >
          <Upload /> Import JSON
        </Button>
        <Button
          variant="ghost"
          size="sm"
          data-testid="export-json"
          onClick={() => setDialog('export')}
          disabled={!spec.ok}
        >
          <Download /> Export JSON
        </Button>
        <div className="ml-auto flex items-center gap-2">{actions?.({ spec, graph })}</div>
      </div>

      {dialog ? (
        <JsonDialog
          mode={dialog}
          exported={spec.ok ? JSON.stringify(spec.spec, null, 2) : ''}
          onClose={() => setDialog(null)}
          onImport={(g) => {
            dispatch({ type: 'load', graph: laidOut(g) });
            url.set({ node: null });
            setDialog(null);
            setTimeout(() => flow.fitView({ padding: 0.2, maxZoom: 1 }), 50);
          }}
        />
      ) : null}

      <div className="grid gap-3 xl:grid-cols-[1fr_440px]">
        <div className="flex min-w-0 flex-col gap-2">
          <div
            className="h-[620px] overflow-hidden rounded-xl border bg-card"
            data-testid="graph-canvas"
          >
            <ReactFlow<FlowNode>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              isValidConnection={isValidConnection}
              onNodeDragStop={(_e, _n, moved) => {
                const positions = Object.fromEntries(moved.map((m) => [m.id, m.position]));
                run({ type: 'move', positions });
                setDragging({});
              }}
              onPaneClick={() => url.set({ node: null })}
              colorMode={resolvedTheme === 'dark' ? 'dark' : 'light'}
              fitView
              fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
              deleteKeyCode={['Backspace', 'Delete']}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              <Controls showInteractive={false} />
            </ReactFlow>
          </div>
          <SpecStatus spec={spec} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
          <div className="rounded-xl border bg-card">
            <SidePanel
              node={selected}
              graph={graph}
              spec={spec.ok ? spec.spec : undefined}
              onUpdate={(data, key) =>
                selected && run({ type: 'update', id: selected.id, data }, key)
              }
            />
          </div>
          {below?.({ spec })}
        </div>
      </div>
    </div>
  );
}

function SpecStatus({ spec }: { spec: ReturnType<typeof graphToSpec> }) {
  if (spec.ok) {
    return (
      <div
        className="rounded-lg border border-success/40 bg-success-soft px-3 py-2 text-sm text-success"
        data-testid="spec-status"
        data-ok="true"
      >
        The graph is a valid harness spec.
      </div>
    );
  }
  return (
    <div
      className="rounded-lg border border-warning/40 bg-warning-soft px-3 py-2 text-sm text-warning"
      data-testid="spec-status"
      data-ok="false"
    >
      <div className="font-medium">Not a harness yet:</div>
      <ul className="list-disc pl-5">
        {spec.issues.slice(0, 6).map((i) => (
          <li key={`${i.nodeId ?? ''}:${i.message}`}>{i.message}</li>
        ))}
      </ul>
    </div>
  );
}

function JsonDialog({
  mode,
  exported,
  onClose,
  onImport,
}: {
  mode: 'import' | 'export';
  exported: string;
  onClose: () => void;
  onImport: (graph: Graph) => void;
}) {
  const [text, setText] = useState(mode === 'export' ? exported : '');
  const [error, setError] = useState<string | null>(null);
  const doImport = () => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      setError(`not JSON: ${(e as Error).message}`);
      return;
    }
    const parsed = HarnessSpecSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(
        `invalid harness spec at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
      );
      return;
    }
    onImport(specToGraph(parsed.data));
  };
  return (
    <div className="rounded-xl border bg-card p-4" data-testid={`${mode}-dialog`}>
      <div className="mb-2 flex items-center justify-between">
        <div className="text-sm font-medium">
          {mode === 'export' ? 'HarnessSpec (JSON)' : 'Import a HarnessSpec'}
        </div>
        <div className="flex gap-2">
          {mode === 'export' ? (
            <Button variant="outline" size="sm" asChild>
              <a
                href={`data:application/json;charset=utf-8,${encodeURIComponent(exported)}`}
                download="harness-spec.json"
              >
                <Download /> Download
              </a>
            </Button>
          ) : (
            <Button size="sm" data-testid="import-apply" onClick={doImport}>
              Import
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      <Textarea
        data-testid={`${mode}-text`}
        className="h-64 font-mono text-xs"
        value={text}
        readOnly={mode === 'export'}
        onChange={(e) => setText(e.target.value)}
        placeholder='{ "version": 1, "env": { "type": "base", "bridge": "toy24", "task": "1-1-1-12" } }'
      />
      {error ? (
        <p className="mt-2 text-sm text-danger" data-testid="import-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
