// The harness graph as a pure model: nodes and ports, connection rules, and the exact conversion
// between a graph and the HarnessSpec tree it stands for. React Flow only renders this and reports
// edits; everything here is plain TypeScript with unit tests.
import type { ContractRule } from '../../contracts/contract-rules.ts';
import type {
  Action,
  BranchVerdict,
  ChainMode,
  HarnessNode,
  HarnessSpec,
  StageIntro,
} from '../../contracts/spec.ts';

export type NodeKind = 'base' | 'stage' | 'contract' | 'chain' | 'output';
export type InputHandle = 'env' | 'first' | 'second' | 'remedial';

export interface XY {
  x: number;
  y: number;
}

export type GraphNode =
  | { id: string; kind: 'base'; position: XY; data: { bridge: string; task: string } }
  | { id: string; kind: 'stage'; position: XY; data: { actions: Action[]; intro?: StageIntro } }
  | {
      id: string;
      kind: 'contract';
      position: XY;
      /** Declarative rules and/or hook code; an absent one stays absent in the spec. */
      data: { rules?: ContractRule[]; code?: string };
    }
  | {
      id: string;
      kind: 'chain';
      position: XY;
      data: { mode: ChainMode; when?: string; verdict?: BranchVerdict; carryContext?: boolean };
    }
  | { id: string; kind: 'output'; position: XY; data: Record<string, never> };

export type NodeData<K extends NodeKind> = Extract<GraphNode, { kind: K }>['data'];

/** An edge runs from the wrapped environment (source) into the wrapping node's input (target). */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  targetHandle: InputHandle;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Inputs per node kind; `required` inputs must be connected for the graph to be a spec. */
export const INPUTS: Record<NodeKind, { handle: InputHandle; required: boolean; label: string }[]> =
  {
    base: [],
    stage: [{ handle: 'env', required: true, label: 'env' }],
    contract: [{ handle: 'env', required: true, label: 'env' }],
    chain: [
      { handle: 'first', required: true, label: 'first' },
      { handle: 'second', required: true, label: 'second' },
      { handle: 'remedial', required: false, label: 'remedial' },
    ],
    output: [{ handle: 'env', required: true, label: 'harness' }],
  };

export function hasOutput(kind: NodeKind): boolean {
  return kind !== 'output';
}

export function edgeId(source: string, target: string, handle: InputHandle): string {
  return `e:${source}->${target}:${handle}`;
}

export type ConnectResult = { ok: true } | { ok: false; reason: string };

/** Whether `source`'s output may feed `target`'s input `handle`: the graph must stay a tree. */
export function canConnect(
  graph: Graph,
  c: { source: string; target: string; targetHandle: InputHandle | string | null | undefined },
): ConnectResult {
  const source = graph.nodes.find((n) => n.id === c.source);
  const target = graph.nodes.find((n) => n.id === c.target);
  if (!source || !target) return { ok: false, reason: 'unknown node' };
  if (source.id === target.id) return { ok: false, reason: 'a node cannot wrap itself' };
  if (!hasOutput(source.kind))
    return { ok: false, reason: 'the harness output has no outgoing port' };
  const input = INPUTS[target.kind].find((i) => i.handle === c.targetHandle);
  if (!input)
    return { ok: false, reason: `${target.kind} has no input '${String(c.targetHandle)}'` };
  if (graph.edges.some((e) => e.target === target.id && e.targetHandle === input.handle)) {
    return { ok: false, reason: `${target.kind}.${input.handle} is already connected` };
  }
  if (graph.edges.some((e) => e.source === source.id)) {
    return {
      ok: false,
      reason: 'each environment feeds exactly one wrapper (a harness is a tree)',
    };
  }
  if (reaches(graph, target.id, source.id)) {
    return { ok: false, reason: 'that connection would make a cycle' };
  }
  return { ok: true };
}

/** Whether following edges downstream from `from` arrives at `to`. */
function reaches(graph: Graph, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of graph.edges) if (e.source === id) stack.push(e.target);
  }
  return false;
}

export function hasCycle(graph: Graph): boolean {
  return graph.edges.some((e) =>
    reaches({ ...graph, edges: graph.edges.filter((x) => x !== e) }, e.target, e.source),
  );
}

export interface GraphIssue {
  nodeId?: string;
  message: string;
}

export type ToSpecResult = { ok: true; spec: HarnessSpec } | { ok: false; issues: GraphIssue[] };

const LABEL: Record<NodeKind, string> = {
  base: 'Environment',
  stage: 'Stage',
  contract: 'Contract',
  chain: 'Chain',
  output: 'Harness output',
};

export function kindLabel(kind: NodeKind): string {
  return LABEL[kind];
}

/** The HarnessSpec the graph stands for, or every reason it is not one yet. */
export function graphToSpec(graph: Graph): ToSpecResult {
  const outputs = graph.nodes.filter((n) => n.kind === 'output');
  if (outputs.length !== 1) {
    return {
      ok: false,
      issues: [{ message: `a harness has exactly one output (found ${outputs.length})` }],
    };
  }
  if (hasCycle(graph)) return { ok: false, issues: [{ message: 'the graph has a cycle' }] };
  const { env, issues, used } = buildFrom(graph, outputs[0]!.id);
  for (const n of graph.nodes) {
    if (!used.has(n.id)) {
      issues.push({
        nodeId: n.id,
        message: `${LABEL[n.kind]} is not connected to the harness output`,
      });
    }
  }
  if (!env || issues.length > 0) return { ok: false, issues };
  return { ok: true, spec: { version: 1, env } };
}

/** The spec of the sub-stack a node stands for (e.g. what a Stage wraps, to play it). */
export function subtreeSpec(graph: Graph, nodeId: string): ToSpecResult {
  if (hasCycle(graph)) return { ok: false, issues: [{ message: 'the graph has a cycle' }] };
  const { env, issues } = buildFrom(graph, nodeId);
  if (!env || issues.length > 0) return { ok: false, issues };
  return { ok: true, spec: { version: 1, env } };
}

function buildFrom(
  graph: Graph,
  rootId: string,
): { env: HarnessNode | undefined; issues: GraphIssue[]; used: Set<string> } {
  const issues: GraphIssue[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const inputOf = (id: string, handle: InputHandle): GraphNode | undefined => {
    const edge = graph.edges.find((e) => e.target === id && e.targetHandle === handle);
    return edge ? byId.get(edge.source) : undefined;
  };
  const used = new Set<string>();

  const build = (node: GraphNode): HarnessNode | undefined => {
    used.add(node.id);
    const need = (handle: InputHandle): HarnessNode | undefined => {
      const inner = inputOf(node.id, handle);
      if (!inner) {
        issues.push({
          nodeId: node.id,
          message: `${LABEL[node.kind]}: connect its '${handle}' input`,
        });
        return undefined;
      }
      return build(inner);
    };
    switch (node.kind) {
      case 'base':
        if (!node.data.bridge || !node.data.task) {
          issues.push({ nodeId: node.id, message: 'Environment: choose a bridge and a task' });
          return undefined;
        }
        return { type: 'base', bridge: node.data.bridge, task: node.data.task };
      case 'stage': {
        const env = need('env');
        if (!env) return undefined;
        const stage: HarnessNode = { type: 'stage', actions: node.data.actions, env };
        if (node.data.intro !== undefined) stage.intro = node.data.intro;
        return stage;
      }
      case 'contract': {
        const env = need('env');
        if (!env) return undefined;
        const contract: HarnessNode = { type: 'contract', env };
        if (node.data.rules !== undefined) contract.rules = node.data.rules;
        if (node.data.code !== undefined) contract.code = node.data.code;
        return contract;
      }
      case 'chain': {
        const first = need('first');
        const second = need('second');
        const remedialNode = inputOf(node.id, 'remedial');
        const remedial = remedialNode ? build(remedialNode) : undefined;
        if (!first || !second) return undefined;
        const chain: HarnessNode = { type: 'chain', mode: node.data.mode, first, second };
        if (remedial) chain.remedial = remedial;
        if (node.data.when !== undefined) chain.when = node.data.when;
        if (node.data.verdict !== undefined) chain.verdict = node.data.verdict;
        if (node.data.carryContext !== undefined) chain.carryContext = node.data.carryContext;
        return chain;
      }
      case 'output':
        return need('env');
    }
  };
  const root = byId.get(rootId);
  if (!root) return { env: undefined, issues: [{ message: `unknown node '${rootId}'` }], used };
  return { env: build(root), issues, used };
}

/** The graph of a spec. Node ids are the nodes' paths in the spec (`env`, `env.first`, …), the same
 * names the engine uses for layers in LayerChange, so a step's changes point at graph nodes. */
export function specToGraph(spec: HarnessSpec): Graph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const origin = { x: 0, y: 0 };
  const visit = (node: HarnessNode, path: string): string => {
    switch (node.type) {
      case 'base':
        nodes.push({
          id: path,
          kind: 'base',
          position: origin,
          data: { bridge: node.bridge, task: node.task },
        });
        break;
      case 'stage': {
        const data: NodeData<'stage'> = { actions: node.actions };
        if (node.intro !== undefined) data.intro = node.intro;
        nodes.push({ id: path, kind: 'stage', position: origin, data });
        link(visit(node.env, `${path}.env`), path, 'env');
        break;
      }
      case 'contract': {
        const data: NodeData<'contract'> = {};
        if (node.rules !== undefined) data.rules = node.rules;
        if (node.code !== undefined) data.code = node.code;
        nodes.push({ id: path, kind: 'contract', position: origin, data });
        link(visit(node.env, `${path}.env`), path, 'env');
        break;
      }
      case 'chain': {
        const data: NodeData<'chain'> = { mode: node.mode };
        if (node.when !== undefined) data.when = node.when;
        if (node.verdict !== undefined) data.verdict = node.verdict;
        if (node.carryContext !== undefined) data.carryContext = node.carryContext;
        nodes.push({ id: path, kind: 'chain', position: origin, data });
        link(visit(node.first, `${path}.first`), path, 'first');
        link(visit(node.second, `${path}.second`), path, 'second');
        if (node.remedial) link(visit(node.remedial, `${path}.remedial`), path, 'remedial');
        break;
      }
    }
    return path;
  };
  const link = (source: string, target: string, handle: InputHandle) => {
    edges.push({ id: edgeId(source, target, handle), source, target, targetHandle: handle });
  };
  const root = visit(spec.env, 'env');
  nodes.push({ id: 'output', kind: 'output', position: origin, data: {} });
  link(root, 'output', 'env');
  return { nodes, edges };
}

/** What dagre (or any layered layout) needs: sizes and edges, flowing left to right into the output. */
export interface LayoutInput {
  nodes: { id: string; width: number; height: number }[];
  edges: { source: string; target: string }[];
}

/**
 * Every node is drawn at exactly this size (nodes.tsx), so the auto-layout's boxes are the boxes on
 * screen and laid-out nodes never overlap. Text inside is at least 12 px at zoom 1.
 */
export const NODE_SIZE: Record<NodeKind, { width: number; height: number }> = {
  base: { width: 248, height: 96 },
  stage: { width: 248, height: 96 },
  contract: { width: 248, height: 96 },
  chain: { width: 248, height: 176 },
  output: { width: 184, height: 64 },
};

/** Where input port `i` of a node with several inputs sits (px from the node's top): its handle
 * and its label share this line, so they stay aligned. */
export function portTop(i: number): number {
  return 68 + i * 30;
}

export function layoutInput(graph: Graph): LayoutInput {
  // Edges are ordered by the input handle so a chain's legs keep first-above-second.
  const order: Record<InputHandle, number> = { env: 0, first: 0, second: 1, remedial: 2 };
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id, ...NODE_SIZE[n.kind] })),
    edges: [...graph.edges]
      .sort((a, b) => order[a.targetHandle] - order[b.targetHandle])
      .map((e) => ({ source: e.source, target: e.target })),
  };
}

// ───────────────────────── edits as commands, on a history stack ─────────────────────────

export type Command =
  | { type: 'add'; node: GraphNode }
  | { type: 'remove'; ids: string[] }
  | { type: 'move'; positions: Record<string, XY> }
  | { type: 'connect'; edge: Omit<GraphEdge, 'id'> }
  | { type: 'disconnect'; ids: string[] }
  | { type: 'update'; id: string; data: GraphNode['data'] }
  | { type: 'replace'; graph: Graph };

export function applyCommand(graph: Graph, cmd: Command): Graph {
  switch (cmd.type) {
    case 'add':
      return { ...graph, nodes: [...graph.nodes, cmd.node] };
    case 'remove': {
      const ids = new Set(cmd.ids);
      return {
        nodes: graph.nodes.filter((n) => !ids.has(n.id)),
        edges: graph.edges.filter((e) => !ids.has(e.source) && !ids.has(e.target)),
      };
    }
    case 'move':
      return {
        ...graph,
        nodes: graph.nodes.map((n) => {
          const p = cmd.positions[n.id];
          return p ? { ...n, position: p } : n;
        }),
      };
    case 'connect': {
      const check = canConnect(graph, cmd.edge);
      if (!check.ok) return graph;
      const id = edgeId(cmd.edge.source, cmd.edge.target, cmd.edge.targetHandle);
      return { ...graph, edges: [...graph.edges, { ...cmd.edge, id }] };
    }
    case 'disconnect': {
      const ids = new Set(cmd.ids);
      return { ...graph, edges: graph.edges.filter((e) => !ids.has(e.id)) };
    }
    case 'update':
      return {
        ...graph,
        nodes: graph.nodes.map((n) =>
          n.id === cmd.id ? ({ ...n, data: cmd.data } as GraphNode) : n,
        ),
      };
    case 'replace':
      return cmd.graph;
  }
}

export interface History {
  past: Graph[];
  present: Graph;
  future: Graph[];
  /** Typing in a field is one undo step: edits with the same key in quick succession merge. */
  coalesce?: { key: string; at: number };
}

const COALESCE_MS = 1500;

const HISTORY_LIMIT = 200;

/** A fresh history (loading a graph clears undo). */
export function initHistory(graph: Graph): History {
  return { past: [], present: graph, future: [] };
}

export function apply(
  h: History,
  cmd: Command,
  opts?: { coalesceKey?: string; now?: number },
): History {
  const next = applyCommand(h.present, cmd);
  if (next === h.present) return h;
  const now = opts?.now ?? Date.now();
  const key = opts?.coalesceKey;
  if (key && h.coalesce?.key === key && now - h.coalesce.at < COALESCE_MS && h.past.length > 0) {
    return { past: h.past, present: next, future: [], coalesce: { key, at: now } };
  }
  return {
    past: [...h.past, h.present].slice(-HISTORY_LIMIT),
    present: next,
    future: [],
    ...(key ? { coalesce: { key, at: now } } : {}),
  };
}

export function undo(h: History): History {
  const prev = h.past.at(-1);
  if (!prev) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  const next = h.future[0];
  if (!next) return h;
  return { past: [...h.past, h.present], present: next, future: h.future.slice(1) };
}

let counter = 0;
/** Unique ids for nodes created in the editor (spec-derived nodes use their paths). */
export function newNodeId(kind: NodeKind): string {
  counter += 1;
  return `${kind}-${Date.now().toString(36)}-${counter}`;
}

/** A new node of a kind, with the data it starts with. */
export function newNode(kind: Exclude<NodeKind, 'output'>, position: XY): GraphNode {
  const id = newNodeId(kind);
  switch (kind) {
    case 'base':
      return { id, kind, position, data: { bridge: '', task: '' } };
    case 'stage':
      return { id, kind, position, data: { actions: [] } };
    case 'contract':
      return { id, kind, position, data: { code: CONTRACT_TEMPLATE } };
    case 'chain':
      return { id, kind, position, data: { mode: 'sequential' } };
  }
}

export const CONTRACT_TEMPLATE = `// Hooks run in a sandbox. Each is optional; a missing hook is the identity.
// state is the environment's read-only state view (JSON).

export function filterAction(action, state) {
  // return action, a changed action, or { blocked: 'reason' }
  return action;
}

export function modifyTransition(action, result, state) {
  // result: { observation, reward, terminated, truncated, info }; reward and verdict pass through
  return result;
}

export function filterObservation(observation, state) {
  // observation: { text, data? }
  return observation;
}
`;

/** How a side panel reports an edit of a node's data (edits with one coalesce key undo as one). */
export type UpdateFn = (data: GraphNode['data'], coalesceKey?: string) => void;
