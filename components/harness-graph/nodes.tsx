'use client';
// React Flow renderers for the model's node kinds. They only display a GraphNode; edits go through
// the editor's command history. Each node is drawn at exactly its NODE_SIZE (the auto-layout's
// box) and its text is at least 12 px at zoom 1; a multi-input node's port labels sit on the same
// line as their handles (model.ts portTop).
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { Boxes, Code2, GitFork, ListOrdered, LogOut } from 'lucide-react';
import type { ComponentType } from 'react';
import { DEFAULT_BRANCH_VERDICT, DEFAULT_STAGE_INTRO } from '../../contracts/spec.ts';
import { cn } from '../ui/cn.ts';
import { type GraphNode, INPUTS, kindLabel, NODE_SIZE, type NodeKind, portTop } from './model.ts';

export type FlowNodeData = {
  gnode: GraphNode;
  issue?: string;
  /** People (co-editing) who have this node selected: name and colour. */
  peers?: { name: string; colour: string }[];
};
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
      const code = n.data.code ?? '';
      const hooks = ['filterAction', 'modifyTransition', 'filterObservation'].filter((h) =>
        new RegExp(`function\\s+${h}\\b`).test(code),
      );
      const rules = n.data.rules?.length ?? 0;
      const parts = [
        ...(rules ? [`${rules} rule${rules === 1 ? '' : 's'}`] : []),
        ...(hooks.length ? [hooks.join(', ')] : []),
      ];
      return parts.length ? parts.join(' · ') : 'no hooks';
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
  const size = NODE_SIZE[n.kind];
  const multi = inputs.length > 1;
  const peer = data.peers?.[0];
  return (
    <div
      data-testid={`node-${n.kind}`}
      data-problem={data.issue ? 'true' : undefined}
      className={cn(
        'harness-node relative overflow-hidden rounded-lg border border-l-4 bg-card px-3 py-2.5 text-card-foreground shadow-sm',
        TONE[n.kind],
        selected && 'ring-2 ring-ring',
        // A node with a problem is red all round, so it stands out on a large graph.
        data.issue && 'border-danger border-l-danger bg-danger-soft',
      )}
      style={{
        width: size.width,
        height: size.height,
        ...(peer ? { boxShadow: `0 0 0 3px ${peer.colour}` } : {}),
      }}
    >
      {inputs.map((input, i) => (
        <Handle
          key={input.handle}
          id={input.handle}
          type="target"
          position={Position.Left}
          data-testid={`handle-${input.handle}`}
          style={{ top: multi ? portTop(i) : '50%' }}
          className="!size-3.5 !border-2 !border-card !bg-muted-foreground"
        />
      ))}
      <div className="flex items-center gap-2 text-sm font-semibold">
        <Icon className="size-4 text-muted-foreground" />
        {kindLabel(n.kind)}
      </div>
      <div
        className="node-detail mt-1 truncate font-mono text-xs text-muted-foreground"
        title={summary(n)}
      >
        {summary(n)}
      </div>
      {multi
        ? inputs.map((input, i) => (
            <span
              key={input.handle}
              className="node-detail absolute left-3 -translate-y-1/2 text-xs leading-4 text-muted-foreground"
              style={{ top: portTop(i) }}
              data-testid={`port-label-${input.handle}`}
            >
              ← {input.label}
              {input.required ? '' : ' (optional)'}
            </span>
          ))
        : null}
      {data.issue ? (
        <div
          className={cn(
            'line-clamp-2 text-xs leading-4 text-danger',
            multi ? 'absolute right-3 bottom-2 left-3' : 'mt-1',
          )}
          data-testid="node-issue"
          title={data.issue}
        >
          {data.issue}
        </div>
      ) : null}
      {peer ? (
        <span
          className="absolute top-1 right-1 rounded px-1 text-xs font-medium text-white"
          style={{ background: peer.colour }}
          data-testid="peer-selection"
        >
          {data.peers?.map((p) => p.name).join(', ')}
        </span>
      ) : null}
      {n.kind !== 'output' ? (
        <Handle
          type="source"
          position={Position.Right}
          data-testid="handle-out"
          className="!size-3.5 !border-2 !border-card !bg-primary"
        />
      ) : null}
    </div>
  );
}

// One React Flow type for every kind: React Flow's own 'output' / 'default' types carry built-in
// styles that would frame our nodes twice.
export const nodeTypes = { harness: HarnessNodeView };
