'use client';
// The side panel edits the selected node's data: an Environment's task, a Stage's set-up actions
// (built from the tools, with the admissible commands offered by playing the wrapped environment),
// a Contract's declarative rules and hook code, a Chain's mode — and the node's problems as the editor's validation found
// them (hook errors with line and column).
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import {
  BRANCH_VERDICTS,
  type BranchVerdict,
  CHAIN_MODES,
  type ChainMode,
  DEFAULT_BRANCH_VERDICT,
  type HarnessSpec,
} from '../../contracts/spec.ts';
import type { SpecProblem } from '../../contracts/validation.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Label, Select } from '../ui/input.tsx';
import { CodeEditor } from './code-editor.tsx';
import {
  CONTRACT_TEMPLATE,
  type Graph,
  type GraphNode,
  kindLabel,
  subtreeSpec,
  type UpdateFn,
} from './model.ts';
import { RulesForm } from './rules-form.tsx';
import { StagePanel } from './stage-panel.tsx';
import { TestOnTrajectory } from './test-on-trajectory.tsx';
import { useEditorValidation } from './use-spec-validation.ts';

/** The problems validation found on this node. */
function useNodeProblems(id: string): SpecProblem[] {
  return useEditorValidation().placed?.byNode.get(id) ?? [];
}

/** A Contract shows its problems beside its code; the other kinds below their fields. */
function OtherNodeProblems({ id }: { id: string }) {
  return <NodeProblems problems={useNodeProblems(id)} testId="node-problems" />;
}

function NodeProblems({ problems, testId }: { problems: SpecProblem[]; testId: string }) {
  if (problems.length === 0) return null;
  return (
    <ul
      className="flex flex-col gap-1 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-xs text-danger"
      data-testid={testId}
    >
      {problems.map((p) => (
        <li key={`${p.line ?? ''}:${p.message}`}>
          {p.line ? (
            <strong>
              Line {p.line}
              {p.column ? `:${p.column}` : ''} —{' '}
            </strong>
          ) : null}
          {p.message}
        </li>
      ))}
    </ul>
  );
}

export function SidePanel({
  node,
  graph,
  spec,
  onUpdate,
}: {
  node: GraphNode | undefined;
  graph: Graph;
  spec: HarnessSpec | undefined;
  onUpdate: UpdateFn;
}) {
  if (!node) {
    return (
      <div className="p-4 text-sm text-muted-foreground" data-testid="side-panel">
        <p className="font-medium text-foreground">Select a node to edit it.</p>
        <p className="mt-2">
          Add Stage, Contract and Chain nodes from the palette, then drag from a node’s right port
          to the left port of the node that wraps it. The graph is the HarnessSpec: order matters, a
          harness is a tree, and it has exactly one output.
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4 p-4" data-testid="side-panel" data-node={node.id}>
      <div className="flex items-center gap-2">
        <Badge variant="accent">{kindLabel(node.kind)}</Badge>
        <code className="truncate text-xs text-muted-foreground">{node.id}</code>
      </div>
      {node.kind === 'base' ? <BasePanel node={node} onUpdate={onUpdate} /> : null}
      {node.kind === 'stage' ? <StagePanel node={node} graph={graph} onUpdate={onUpdate} /> : null}
      {node.kind === 'contract' ? (
        <ContractPanel node={node} graph={graph} spec={spec} onUpdate={onUpdate} />
      ) : null}
      {node.kind === 'chain' ? <ChainPanel node={node} onUpdate={onUpdate} /> : null}
      {node.kind !== 'contract' ? <OtherNodeProblems id={node.id} /> : null}
      {node.kind === 'output' ? (
        <p className="text-sm text-muted-foreground">
          What the policy plays: the node connected here is the top of the stack.
        </p>
      ) : null}
    </div>
  );
}

function BasePanel({
  node,
  onUpdate,
}: {
  node: Extract<GraphNode, { kind: 'base' }>;
  onUpdate: UpdateFn;
}) {
  const trpc = useTRPC();
  const bridges = useQuery(trpc.bridges.list.queryOptions());
  const tasks = useQuery({
    ...trpc.tasks.list.queryOptions({
      bridge: node.data.bridge,
      text: node.data.task || undefined,
      limit: 50,
    }),
    enabled: Boolean(node.data.bridge),
  });
  const known = tasks.data?.items.some((t) => t.id === node.data.task);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor="base-bridge">Bridge</Label>
        <Select
          id="base-bridge"
          data-testid="base-bridge"
          value={node.data.bridge}
          onChange={(e) => onUpdate({ bridge: e.target.value, task: '' })}
        >
          <option value="">Choose…</option>
          {bridges.data?.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="base-task">Task</Label>
        <Input
          id="base-task"
          data-testid="base-task"
          list="base-task-options"
          value={node.data.task}
          onChange={(e) => onUpdate({ ...node.data, task: e.target.value }, `${node.id}.task`)}
        />
        <datalist id="base-task-options">
          {tasks.data?.items.map((t) => (
            <option key={t.id} value={t.id}>
              {t.goal}
            </option>
          ))}
        </datalist>
        {known ? (
          <p className="text-xs text-muted-foreground">
            {tasks.data?.items.find((t) => t.id === node.data.task)?.goal}
          </p>
        ) : node.data.task ? (
          <p className="text-xs text-warning">No such task yet — keep typing or pick one.</p>
        ) : null}
      </div>
    </div>
  );
}

function ContractPanel({
  node,
  graph,
  spec,
  onUpdate,
}: {
  node: Extract<GraphNode, { kind: 'contract' }>;
  graph: Graph;
  spec: HarnessSpec | undefined;
  onUpdate: UpdateFn;
}) {
  const { validation, checkNow } = useEditorValidation();
  const problems = useNodeProblems(node.id);
  const target =
    spec ??
    (() => {
      const r = subtreeSpec(graph, node.id);
      return r.ok ? r.spec : undefined;
    })();
  const dry = validation.state === 'valid' ? validation.result.dryRun : undefined;
  const code = node.data.code;
  return (
    <div className="flex flex-col gap-3">
      <RulesForm
        nodeId={node.id}
        rules={node.data.rules ?? []}
        onChange={(rules, key) => {
          const { rules: _, ...rest } = node.data;
          onUpdate(rules.length > 0 ? { ...rest, rules } : rest, key);
        }}
      />
      {code === undefined ? (
        <Button
          size="sm"
          variant="outline"
          className="self-start"
          data-testid="contract-add-code"
          onClick={() => onUpdate({ ...node.data, code: CONTRACT_TEMPLATE })}
        >
          Add hook code
        </Button>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">
            <code>filterAction(action, state)</code> ·{' '}
            <code>modifyTransition(action, result, state)</code> ·{' '}
            <code>filterObservation(observation, state)</code> — each optional, run after the rules.
            The reward and the verifier pass through unchanged whatever a hook returns.
          </p>
          <CodeEditor
            value={code}
            onChange={(next) => onUpdate({ ...node.data, code: next }, `${node.id}.code`)}
            errorAt={problems.find((p) => p.line)?.line ?? null}
          />
        </>
      )}
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          data-testid="contract-check"
          title="Checks now instead of after the pause: compile, set-up and a dry episode"
          disabled={validation.state === 'draft' || validation.state === 'checking'}
          onClick={checkNow}
        >
          {validation.state === 'checking' ? 'Checking…' : 'Check hooks'}
        </Button>
        {validation.state === 'valid' ? (
          <span className="flex items-center gap-1 text-xs text-success" data-testid="contract-ok">
            <CheckCircle2 className="size-4" /> compiles and ran
            {dry ? ` ${dry.steps} dry steps` : ''} within the hook deadline
          </span>
        ) : null}
        {validation.state === 'draft' ? (
          <span className="text-xs text-muted-foreground">
            Connect the graph to the output to check it.
          </span>
        ) : null}
      </div>
      <NodeProblems problems={problems} testId="contract-error" />
      {target ? <TestOnTrajectory spec={target} /> : null}
    </div>
  );
}

function ChainPanel({
  node,
  onUpdate,
}: {
  node: Extract<GraphNode, { kind: 'chain' }>;
  onUpdate: UpdateFn;
}) {
  const d = node.data;
  const setMode = (mode: ChainMode) => {
    const next: typeof d = { mode };
    if (mode === 'switch') next.when = d.when ?? '';
    if (mode === 'branch' && d.verdict !== undefined) next.verdict = d.verdict;
    if (d.carryContext !== undefined) next.carryContext = d.carryContext;
    onUpdate(next);
  };
  const setVerdict = (verdict: BranchVerdict) => {
    const { verdict: _drop, ...rest } = d;
    onUpdate(verdict === DEFAULT_BRANCH_VERDICT ? rest : { ...rest, verdict });
  };
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor="chain-mode">Mode</Label>
        <Select
          id="chain-mode"
          data-testid="chain-mode"
          value={d.mode}
          onChange={(e) => setMode(e.target.value as ChainMode)}
        >
          {CHAIN_MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </Select>
        <p className="text-xs text-muted-foreground">
          {d.mode === 'sequential' && 'Play the first leg, then the second.'}
          {d.mode === 'branch' &&
            'First leg succeeded → second leg; failed → the remedial leg (connect it).'}
          {d.mode === 'switch' &&
            'Switch to the second leg when the condition on the state view holds.'}
          {d.mode === 'alternate' && 'Alternate between the legs.'}
          {d.mode === 'branch'
            ? ' Which verdicts count is the rule below.'
            : ' The composite succeeds only when every leg’s own verifier passes.'}
        </p>
      </div>
      {d.mode === 'branch' ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor="chain-verdict">Verdict rule</Label>
          <Select
            id="chain-verdict"
            data-testid="chain-verdict"
            value={d.verdict ?? DEFAULT_BRANCH_VERDICT}
            onChange={(e) => setVerdict(e.target.value as BranchVerdict)}
          >
            {BRANCH_VERDICTS.map((v) => (
              <option key={v} value={v}>
                {v === DEFAULT_BRANCH_VERDICT ? `${v} (default)` : v}
              </option>
            ))}
          </Select>
          <p className="text-xs text-muted-foreground">
            {(d.verdict ?? DEFAULT_BRANCH_VERDICT) === 'all-legs'
              ? 'all-legs: every leg in play must pass — after a failed first leg the episode cannot succeed, whatever the remedial leg does.'
              : 'remedial-decides: after a failed first leg, the episode succeeds when the remedial leg does (the first leg’s failure is recorded, not counted). After a passed first leg, both legs must pass.'}
          </p>
        </div>
      ) : null}
      {d.mode === 'switch' ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor="chain-when">Condition (JavaScript over state)</Label>
          <Input
            id="chain-when"
            data-testid="chain-when"
            className="font-mono"
            placeholder="state.agent.holding !== null"
            value={d.when ?? ''}
            onChange={(e) => onUpdate({ ...d, when: e.target.value }, `${node.id}.when`)}
          />
        </div>
      ) : null}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={d.carryContext ?? false}
          onChange={(e) => {
            const { carryContext: _drop, ...rest } = d;
            onUpdate(e.target.checked ? { ...rest, carryContext: true } : rest);
          }}
        />
        Show a context banner when the episode switches legs
      </label>
    </div>
  );
}
