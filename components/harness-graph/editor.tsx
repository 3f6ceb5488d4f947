'use client';
// Journey 3: the harness graph editor. React Flow renders the pure model (model.ts) and reports
// edits, which become commands on an undo/redo history; selection lives in the URL (?node=), out
// of history. The graph is the HarnessSpec: import/export JSON round-trips exactly.
import '@xyflow/react/dist/style.css';
import { Background, Controls, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import { useTheme } from 'next-themes';
import { type ReactNode, useMemo, useState } from 'react';
import { useUrlState } from '../hooks/use-url-state.ts';
import { issuesByNode, newNodePosition } from './flow.ts';
import { JsonDialog } from './json-dialog.tsx';
import { autoLayout, laidOut } from './layout.ts';
import { LintStatus } from './lint-status.tsx';
import { type Graph, graphToSpec, newNode } from './model.ts';
import { type FlowNode, nodeTypes } from './nodes.tsx';
import { SidePanel } from './side-panel.tsx';
import { SpecStatus } from './spec-status.tsx';
import { GraphToolbar, type PaletteKind } from './toolbar.tsx';
import { useFitView } from './use-fit-view.ts';
import { useFlowEditing } from './use-flow-editing.ts';
import { useGraphHistory } from './use-graph-history.ts';
import { useSpecLint } from './use-spec-lint.ts';
import { SpecValidationContext, useSpecValidation } from './use-spec-validation.ts';
import { nodeIssues } from './validation.ts';

export { laidOut };

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

const FIT = { padding: 0.2, maxZoom: 1 };

/** The editor's state: the history, the spec it stands for, the selection and the edits. */
function useEditor(initial: Graph) {
  const h = useGraphHistory(initial);
  const spec = useMemo(() => graphToSpec(h.graph), [h.graph]);
  const { selectedId, select } = useSelection();
  const requestFit = useFitView();
  // Whether the spec runs, asked of the server; nodes with problems show them.
  const validation = useSpecValidation(spec, h.graph);
  // Once it runs: can it still be won? (solvability lint, beside the validation banner)
  const lint = useSpecLint(spec, validation);
  const issues = nodeIssues(issuesByNode(spec), validation.placed);
  const flow = useFlowEditing({ graph: h.graph, issues, run: h.run, selectedId, select });
  return {
    ...h,
    spec,
    validation,
    lint,
    flow,
    select,
    selected: h.graph.nodes.find((n) => n.id === selectedId),
    addNode: (kind: PaletteKind) => {
      const node = newNode(kind, newNodePosition(h.graph));
      h.run({ type: 'add', node });
      select(node.id);
      requestFit({ ...FIT, duration: 200 });
    },
    layout: () => {
      h.run({ type: 'move', positions: autoLayout(h.graph) });
      requestFit({ ...FIT, duration: 200 });
    },
    importGraph: (graph: Graph) => {
      h.load(laidOut(graph));
      select(null);
      requestFit(FIT);
    },
  };
}

/**
 * The selected node: React state, mirrored into the URL (?node=) so a link shows it. The URL alone
 * is not enough: router.replace lands a render later, and a Delete pressed before it would still
 * find the old node selected and remove it with the edge (React Flow deletes whatever is selected).
 * A URL that changes by itself (a link, back/forward) moves the selection.
 */
function useSelection() {
  const url = useUrlState();
  const inUrl = url.get('node');
  const [selectedId, setSelectedId] = useState(inUrl);
  const [lastUrl, setLastUrl] = useState(inUrl);
  // What we last wrote, until the URL shows it: URLs passing on the way (two quick selections)
  // are our own and move nothing.
  const [writing, setWriting] = useState<{ id: string | undefined } | null>(null);
  if (inUrl !== lastUrl) {
    setLastUrl(inUrl);
    if (!writing) setSelectedId(inUrl);
    else if (writing.id === inUrl) setWriting(null);
  }
  const select = (id: string | null) => {
    setSelectedId(id ?? undefined);
    setWriting((id ?? undefined) === inUrl ? null : { id: id ?? undefined });
    url.set({ node: id });
  };
  return { selectedId, select };
}

function EditorInner({ initial, actions, below }: EditorProps) {
  const e = useEditor(initial);

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
  const { spec, graph, selected } = e;
  const [dialog, setDialog] = useState<'import' | 'export' | null>(null);
  const { resolvedTheme } = useTheme();
  return (
    <div className="flex flex-col gap-3">
      <GraphToolbar
        canUndo={e.history.past.length > 0}
        canRedo={e.history.future.length > 0}
        canExport={spec.ok}
        onAdd={e.addNode}
        onUndo={e.undo}
        onRedo={e.redo}
        onLayout={e.layout}
        onDialog={setDialog}
      >
        {actions?.({ spec, graph })}
      </GraphToolbar>
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
      <div className="grid gap-3 xl:grid-cols-[1fr_440px]">
        <div className="flex min-w-0 flex-col gap-2">
          <div
            className="h-[620px] overflow-hidden rounded-xl border bg-card"
            data-testid="graph-canvas"
          >
            <ReactFlow<FlowNode>
              {...e.flow}
              nodeTypes={nodeTypes}
              onPaneClick={() => e.select(null)}
              colorMode={resolvedTheme === 'dark' ? 'dark' : 'light'}
              fitView
              fitViewOptions={FIT}
              deleteKeyCode={['Backspace', 'Delete']}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              <Controls showInteractive={false} />
            </ReactFlow>
          </div>
          <SpecStatus spec={spec} validation={e.validation} />
          <LintStatus lint={e.lint} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
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
      </div>
    </div>
  );
}
