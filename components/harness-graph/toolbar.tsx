'use client';
// The editor's toolbar: the palette, undo / redo, auto-layout, JSON import / export, and the
// page's own controls (save, create…) at its right end.
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
import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import type { NodeKind } from './model.ts';

export type PaletteKind = Exclude<NodeKind, 'output'>;

const PALETTE: { kind: PaletteKind; label: string; icon: ReactNode; hint: string }[] = [
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

export function GraphToolbar({
  canUndo,
  canRedo,
  canExport,
  onAdd,
  onUndo,
  onRedo,
  onLayout,
  onDialog,
  children,
}: {
  canUndo: boolean;
  canRedo: boolean;
  canExport: boolean;
  onAdd: (kind: PaletteKind) => void;
  onUndo: () => void;
  onRedo: () => void;
  onLayout: () => void;
  onDialog: (mode: 'import' | 'export') => void;
  children?: ReactNode;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-xl border bg-card p-2"
      data-testid="graph-toolbar"
    >
      <Palette onAdd={onAdd} />
      <span className="mx-1 h-6 w-px bg-border" />
      <Button
        variant="ghost"
        size="sm"
        data-testid="undo"
        disabled={!canUndo}
        onClick={onUndo}
        title="Undo (Ctrl+Z)"
      >
        <Undo2 /> Undo
      </Button>
      <Button
        variant="ghost"
        size="sm"
        data-testid="redo"
        disabled={!canRedo}
        onClick={onRedo}
        title="Redo (Ctrl+Shift+Z)"
      >
        <Redo2 /> Redo
      </Button>
      <Button variant="ghost" size="sm" data-testid="auto-layout" onClick={onLayout}>
        <LayoutGrid /> Auto-layout
      </Button>
      <span className="mx-1 h-6 w-px bg-border" />
      <Button
        variant="ghost"
        size="sm"
        data-testid="import-json"
        onClick={() => onDialog('import')}
      >
        <Upload /> Import JSON
      </Button>
      <Button
        variant="ghost"
        size="sm"
        data-testid="export-json"
        onClick={() => onDialog('export')}
        disabled={!canExport}
      >
        <Download /> Export JSON
      </Button>
      <div className="ml-auto flex items-center gap-2">{children}</div>
    </div>
  );
}

function Palette({ onAdd }: { onAdd: (kind: PaletteKind) => void }) {
  return (
    <>
      <span className="px-1 text-xs font-medium text-muted-foreground">Add</span>
      {PALETTE.map((p) => (
        <Button
          key={p.kind}
          variant="outline"
          size="sm"
          title={p.hint}
          data-testid={`palette-${p.kind}`}
          onClick={() => onAdd(p.kind)}
        >
          {p.icon} {p.label}
        </Button>
      ))}
    </>
  );
}
