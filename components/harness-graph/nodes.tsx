'use client';
// React Flow renderers for the model's node kinds. They only display a GraphNode; edits go through
// the editor's command history.
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { Boxes, Code2, GitFork, ListOrdered, LogOut } from 'lucide-react';
import type { ComponentType } from 'react';
import { DEFAULT_BRANCH_VERDICT, DEFAULT_STAGE_INTRO } from '../../contracts/spec.ts';
import { cn } from '../ui/cn.ts';
import { type GraphNode, INPUTS, kindLabel, type NodeKind } from './model.ts';

export type FlowNodeData = { gnode: GraphNode; issue?: string };
export type FlowNode = Node<FlowNodeData>;

const ICON: Record<NodeKind, ComponentType<{ className?: string }>> = {
  base: Boxes,
  stage: ListOrdered,
  contract: Code2,
  chain: GitFork,
  output: LogOut,
};

const TONE: Record<NodeKind, string> = {
  base: 'border-l-info',
  stage: 'border-l-warning',
  contract: 'border-l-primary',
  chain: 'border-l-success',
  output: 'border-l-foreground',
};

function summary(n: GraphNode): string {
  switch (n.kind) {
    case 'base':
      return n.data.bridge && n.data.task ? `${n.data.bridge}:${n.data.task}` : 'choose a task';
    case 'stage':
      return `${n.data.actions.length} set-up action${n.data.actions.length === 1 ? '' : 's'} · intro: ${n.data.intro ?? DEFAULT_STAGE_INTRO}`;
    case 'contract': {
      const hooks = ['filterAction', 'modifyTransition', 'filterObservation'].filter((h) =>
        new RegExp(`function\\s+${h}\\b`).test(n.data.code),
      );
      return hooks.length ? hooks.join(', ') : 'no hooks';
    }
    case 'chain':
      return n.data.mode === 'branch'
        ? `mode: branch · ${n.data.verdict ?? DEFAULT_BRANCH_VERDICT}`
        : `mode: ${n.data.mode}`;
    case 'output':
      return 'what the policy plays';
  }
}

export function HarnessNodeView({ data, selected }: NodeProps<FlowNode>) {
  const n = data.gnode;
  const Icon = ICON[n.kind];
  const inputs = INPUTS[n.kind];
  return (
    <div
      data-testid={`node-${n.kind}`}
      data-problem={data.issue ? 'true' : undefined}
      className={cn(
        'min-w-[200px] max-w-[280px] rounded-lg border border-l-4 bg-card px-3 py-2.5 text-card-foreground shadow-sm',
        TONE[n.kind],
        selected && 'ring-2 ring-ring',
        // A node with a problem is red all round, so it stands out on a large graph.
        data.issue && 'border-danger border-l-danger bg-danger-soft',
      )}
      style={{ minHeight: inputs.length > 1 ? 110 : undefined }}
    >
      {inputs.map((input, i) => (
        <Handle
          key={input.handle}
          id={input.handle}
          type="target"
          position={Position.Left}
          data-testid={`handle-${input.handle}`}
          style={{ top: inputs.length === 1 ? '50%' : `${28 + i * 30}px` }}
          className="!size-3 !border-2 !border-card !bg-muted-foreground"
        />
      ))}
      <div className="flex items-center gap-2 text-sm font-semibold">
        <Icon className="size-4 text-muted-foreground" />
        {kindLabel(n.kind)}
      </div>
      <div className="mt-1 truncate font-mono text-xs text-muted-foreground" title={summary(n)}>
        {summary(n)}
      </div>
      {inputs.length > 1 ? (
        <div className="mt-1 flex flex-col gap-[14px] pt-1 text-[10px] text-muted-foreground">
          {inputs.map((input) => (
            <span key={input.handle}>
              ← {input.label}
              {input.required ? '' : ' (optional)'}
            </span>
          ))}
        </div>
      ) : null}
      {data.issue ? (
        <div className="mt-1 line-clamp-4 text-[11px] text-danger" data-testid="node-issue">
          {data.issue}
        </div>
      ) : null}
      {n.kind !== 'output' ? (
        <Handle
          type="source"
          position={Position.Right}
          data-testid="handle-out"
          className="!size-3 !border-2 !border-card !bg-primary"
        />
      ) : null}
    </div>
  );
}

// One React Flow type for every kind: React Flow's own 'output' / 'default' types carry built-in
// styles that would frame our nodes twice.
export const nodeTypes = { harness: HarnessNodeView };
