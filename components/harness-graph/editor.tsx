'use client';
// Journey 3: the harness graph editor. React Flow renders the pure model (model.ts) and reports
// edits, which become commands on a per-person undo/redo session (collab.ts), shared live when the
// URL names a draft (?draft=); selection lives in the URL (?node=), out of history. The graph is
// the HarnessSpec: import/export JSON round-trips exactly. The canvas takes the page's width, has
// a minimap, fullscreen and a presentation mode, and never fits the view below readable text.
import '@xyflow/react/dist/style.css';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useOnViewportChange,
  useReactFlow,
} from '@xyflow/react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { useColorMode } from '../layout/color-mode.ts';
import { onFollowViewport, reportViewport } from '../live/viewport-bus.ts';
import { cn } from '../ui/cn.ts';
import { issuesByNode, newNodePosition } from './flow.ts';
import { JsonDialog } from './json-dialog.tsx';
import { autoLayout, laidOut } from './layout.ts';
import { LintStatus } from './lint-status.tsx';
import { LiveBar } from './live-bar.tsx';
import { type Graph, graphToSpec, newNode } from './model.ts';
import { type FlowNode, nodeTypes } from './nodes.tsx';
import { SidePanel } from './side-panel.tsx';
import { SpecStatus } from './spec-status.tsx';
import { GraphToolbar, type PaletteKind } from './toolbar.tsx';
import { useFitView } from './use-fit-view.ts';
import { refusalText, useFlowEditing } from './use-flow-editing.ts';
import { useGraphSession, usePresence } from './use-graph-session.ts';
import { useSpecLint } from './use-spec-lint.ts';
import { SpecValidationContext, useSpecValidation } from './use-spec-validation.ts';
import { nodeIssues } from './validation.ts';
import { ConnectionHint, ViewControls, type ViewMode } from './view-controls.tsx';

export { laidOut };

export interface EditorProps {
  initial: Graph;
  /** The harness a live draft of this graph belongs to (none: a new harness). */
  harnessId?: string | undefined;
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

/**
 * Fitting the view never zooms below 1 (the smallest text in a node is 12 px), so text stays
 * readable on a projector; a graph larger than the canvas is centred and panned instead.
 * Presentation mode fits at 1.5 and more.
 */
const FIT = { padding: 0.15, minZoom: 1, maxZoom: 1.25 };
const FIT_PRESENTING = { padding: 0.1, minZoom: 1.5, maxZoom: 2 };

/** The editor's state: the session, the spec it stands for, the selection and the edits. */
function useEditor(initial: Graph, harnessId: string | undefined) {
  const url = useUrlState();
  const draftId = url.get('draft');
  const h = useGraphSession(initial, draftId);
  const spec = useMemo(() => graphToSpec(h.graph), [h.graph]);
  const selectedId = url.get('node');
  // Selecting is frequent: the URL changes in place (history.replaceState, which Next's
  // useSearchParams follows) instead of a router navigation, which would render the page on the
  // server again at every click.
  const select = (id: string | null) => replaceParam('node', id);
  const requestFit = useFitView();
  // Whether the spec runs, asked of the server; nodes with problems show them.
  const validation = useSpecValidation(spec, h.graph);
  // Once it runs: can it still be won? (solvability lint, beside the validation banner)
  const lint = useSpecLint(spec, validation);
  const issues = nodeIssues(issuesByNode(spec), validation.placed);
  const peers = useMemo(() => {
    const m = new Map<string, { name: string; colour: string }[]>();
    for (const p of h.live.people)
      for (const id of p.selection) m.set(id, [...(m.get(id) ?? []), p]);
    return m;
  }, [h.live.people]);
  const editing = useFlowEditing({ graph: h.graph, issues, run: h.run, selectedId, select, peers });
  usePresence(h.live.draftId, editing.selection);
  const [mode, setMode] = useState<ViewMode>({
    fullscreen: false,
    presentation: false,
    panelOpen: true,
  });
  const fit = mode.presentation ? FIT_PRESENTING : FIT;
  return {
    ...h,
    spec,
    validation,
    lint,
    flow: editing.flow,
    refusal: editing.refusal,
    select,
    mode,
    fit,
    setMode: (m: Partial<ViewMode>) => {
      setMode((old) => ({ ...old, ...m }));
      requestFit({
        ...((m.presentation ?? mode.presentation) ? FIT_PRESENTING : FIT),
        duration: 200,
      });
    },
    joinDraft: (id: string | null) => url.set({ draft: id }),
    harnessId,
    selected: h.graph.nodes.find((n) => n.id === selectedId),
    addNode: (kind: PaletteKind) => {
      const node = newNode(kind, newNodePosition(h.graph));
      h.run({ type: 'add', node });
      select(node.id);
      requestFit({ ...fit, duration: 200 });
    },
    layout: () => {
      h.run({ type: 'move', positions: autoLayout(h.graph) });
      requestFit({ ...fit, duration: 200 });
    },
    importGraph: (graph: Graph) => {
      h.load(laidOut(graph));
      select(null);
      requestFit(fit);
    },
  };
}

function replaceParam(key: string, value: string | null): void {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  // No state of Next's own (`__NA`): Next then takes it as an app update and syncs its router.
  if (url.href !== window.location.href) window.history.replaceState(null, '', url);
}

/** Reports this tab's viewport (for "follow me") and takes the presenter's when following. */
function ViewportSync() {
  const flow = useReactFlow();
  useOnViewportChange({ onChange: reportViewport });
  useEffect(() => onFollowViewport((v) => void flow.setViewport(v, { duration: 150 })), [flow]);
  return null;
}

function EditorInner({ initial, harnessId, actions, below }: EditorProps) {
  const e = useEditor(initial, harnessId);

  return (
    <SpecValidationContext value={e.validation}>
      <EditorLayout e={e} actions={actions} below={below} />
    </SpecValidationContext>
  );
}

function EditorLayout({
  e,
  actions,
  below,
}: { e: ReturnType<typeof useEditor> } & Pick<EditorProps, 'actions' | 'below'>) {
  const { spec, graph, selected, mode } = e;
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);
  const colorMode = useColorMode();
  const { setMode } = e;
  useEffect(() => {
    if (!mode.fullscreen) return;
    const onKey = (ev: KeyboardEvent) => ev.key === 'Escape' && setMode({ fullscreen: false });
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode.fullscreen, setMode]);
  return (
    <div
      className={cn(
        'flex flex-col gap-3',
        mode.fullscreen && 'fixed inset-0 z-40 overflow-auto bg-background p-3',
      )}
      data-testid="graph-editor"
      data-fullscreen={mode.fullscreen ? 'true' : undefined}
    >
      <GraphToolbar
        canUndo={e.canUndo}
        canRedo={e.canRedo}
        canExport={spec.ok}
        onAdd={e.addNode}
        onUndo={e.undo}
        onRedo={e.redo}
        onLayout={e.layout}
        onDialog={setDialog}
      >
        {actions?.({ spec, graph })}
      </GraphToolbar>
      <LiveBar
        graph={graph}
        harnessId={e.harnessId}
        live={e.live}
        onJoin={(id) => e.joinDraft(id)}
        onLeave={() => e.joinDraft(null)}
      />
      {dialog ? (
        <JsonDialog
          mode={dialog}
          exported={spec.ok ? JSON.stringify(spec.spec, null, 2) : ''}
          onClose={() => setDialog(null)}
          onImport={(g) => {
            e.importGraph(g);
            setDialog(null);
          }}
        />
      ) : null}
      <div
        className={cn(
          'grid gap-3',
          mode.panelOpen ? 'lg:grid-cols-[minmax(0,1fr)_420px]' : 'grid-cols-1',
        )}
      >
        <div className="flex min-w-0 flex-col gap-2">
          <div
            className={cn(
              'overflow-hidden rounded-xl border bg-card',
              mode.fullscreen ? 'h-[calc(100vh-9rem)]' : 'h-[calc(100vh-18rem)] min-h-[540px]',
              mode.presentation && 'presentation',
            )}
            data-testid="graph-canvas"
            data-presentation={mode.presentation ? 'true' : undefined}
          >
            <ReactFlow<FlowNode>
              {...e.flow}
              nodeTypes={nodeTypes}
              onPaneClick={() => e.select(null)}
              colorMode={colorMode}
              fitView
              fitViewOptions={e.fit}
              minZoom={0.2}
              maxZoom={2.5}
              deleteKeyCode={null}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              <Controls showInteractive={false} fitViewOptions={e.fit} />
              <MiniMap
                pannable
                zoomable
                ariaLabel="Minimap"
                nodeColor="var(--color-muted-foreground)"
                nodeBorderRadius={6}
              />
              <ViewControls mode={mode} onChange={e.setMode} />
              <ConnectionHint graph={graph} />
              <ViewportSync />
            </ReactFlow>
          </div>
          {e.refusal ? (
            <div
              role="alert"
              className="pointer-events-none fixed z-50 rounded-md border border-danger bg-card px-2 py-1 text-xs font-medium text-danger shadow"
              style={{ left: e.refusal.x + 14, top: e.refusal.y + 14 }}
              data-testid="connect-refusal"
            >
              {refusalText(e.refusal.reason)}
            </div>
          ) : null}
          <SpecStatus spec={spec} validation={e.validation} />
          <LintStatus lint={e.lint} />
        </div>
        {mode.panelOpen ? (
          <div className="flex min-w-0 flex-col gap-3" data-testid="side-column">
            <div className="rounded-xl border bg-card">
              <SidePanel
                node={selected}
                graph={graph}
                spec={spec.ok ? spec.spec : undefined}
                onUpdate={(data, key) =>
                  selected && e.run({ type: 'update', id: selected.id, data }, key)
                }
              />
            </div>
            {below?.({ spec })}
          </div>
        ) : null}
      </div>
    </div>
  );
}
