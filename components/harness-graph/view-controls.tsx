'use client';
// The canvas' own controls: fullscreen, presentation mode (larger type, high contrast, the side
// panel folded) and the side panel's fold; and the reason a connection is refused, next to the
// pointer while dragging over a port that will not take it.
import { Panel, useConnection, ViewportPortal } from '@xyflow/react';
import { Maximize2, Minimize2, PanelRightClose, PanelRightOpen, Presentation } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { canConnect, type Graph } from './model.ts';
import { refusalText } from './use-flow-editing.ts';

export interface ViewMode {
  fullscreen: boolean;
  presentation: boolean;
  panelOpen: boolean;
}

export function ViewControls({
  mode,
  onChange,
}: {
  mode: ViewMode;
  onChange: (m: Partial<ViewMode>) => void;
}) {
  return (
    <Panel position="top-right" className="flex gap-1">
      <Button
        variant={mode.presentation ? 'default' : 'outline'}
        size="sm"
        aria-pressed={mode.presentation}
        onClick={() => onChange({ presentation: !mode.presentation, panelOpen: mode.presentation })}
        data-testid="presentation-toggle"
        title="Presentation mode: larger nodes and type, high contrast"
      >
        <Presentation /> Present
      </Button>
      <Button
        variant="outline"
        size="sm"
        aria-pressed={!mode.panelOpen}
        onClick={() => onChange({ panelOpen: !mode.panelOpen })}
        data-testid="panel-toggle"
        title={mode.panelOpen ? 'Fold the side panel' : 'Show the side panel'}
      >
        {mode.panelOpen ? <PanelRightClose /> : <PanelRightOpen />}
        {mode.panelOpen ? 'Fold panel' : 'Panel'}
      </Button>
      <Button
        variant="outline"
        size="sm"
        aria-pressed={mode.fullscreen}
        onClick={() => onChange({ fullscreen: !mode.fullscreen })}
        data-testid="fullscreen-toggle"
        title={mode.fullscreen ? 'Leave fullscreen (Esc)' : 'Fullscreen'}
      >
        {mode.fullscreen ? <Minimize2 /> : <Maximize2 />}
        {mode.fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
      </Button>
    </Panel>
  );
}

/** While a connection is dragged over a port that refuses it, the reason sits by the pointer. */
export function ConnectionHint({ graph }: { graph: Graph }) {
  const c = useConnection();
  if (!c.inProgress || c.isValid !== false || !c.toHandle || !c.toNode) return null;
  const fromTarget = c.fromHandle?.type === 'target';
  const check = canConnect(graph, {
    source: fromTarget ? c.toNode.id : c.fromNode.id,
    target: fromTarget ? c.fromNode.id : c.toNode.id,
    targetHandle: fromTarget ? c.fromHandle.id : c.toHandle.id,
  });
  if (check.ok) return null;
  return (
    <ViewportPortal>
      <div
        className="pointer-events-none absolute rounded-md border border-danger bg-card px-2 py-1 text-xs font-medium whitespace-nowrap text-danger shadow"
        style={{ transform: `translate(${c.to.x + 14}px, ${c.to.y + 14}px)` }}
        data-testid="connect-hint"
      >
        {refusalText(check.reason)}
      </div>
    </ViewportPortal>
  );
}
