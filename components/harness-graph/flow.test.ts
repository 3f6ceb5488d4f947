import type { EdgeChange, NodeChange } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import {
  issuesByNode,
  newNodePosition,
  readEdgeChanges,
  readNodeChanges,
  toFlowEdges,
  toFlowNodes,
} from './flow.ts';
import { type Graph, graphToSpec, specToGraph } from './model.ts';
import type { FlowNode } from './nodes.tsx';
import { importSpecJson } from './spec-json.ts';

const graph: Graph = specToGraph({
  version: 1,
  env: {
    type: 'chain',
    mode: 'sequential',
    first: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
    second: { type: 'base', bridge: 'toy24', task: '4-4-6-6' },
  },
});
const chain = graph.nodes.find((n) => n.kind === 'chain')!;
const output = graph.nodes.find((n) => n.kind === 'output')!;

describe('model to React Flow', () => {
  it('marks the selection, keeps the output undeletable and shows drags in flight', () => {
    const nodes = toFlowNodes(graph, issuesByNode(graphToSpec(graph)), {
      dragging: { [chain.id]: { x: 500, y: 7 } },
      selectedId: chain.id,
    });
    const flowChain = nodes.find((n) => n.id === chain.id)!;
    expect(flowChain.selected).toBe(true);
    expect(flowChain.position).toEqual({ x: 500, y: 7 });
    expect(flowChain.data).toEqual({ gnode: chain });
    expect(nodes.find((n) => n.id === output.id)?.deletable).toBe(false);
    expect(nodes.filter((n) => n.selected)).toHaveLength(1);
  });

  it('puts the first spec issue of a node on it', () => {
    const unplugged: Graph = { ...graph, edges: graph.edges.filter((e) => e.target !== chain.id) };
    const spec = graphToSpec(unplugged);
    const issues = issuesByNode(spec);
    expect(issues.get(chain.id)).toBeTruthy();
    const node = toFlowNodes(unplugged, issues, { dragging: {}, selectedId: undefined }).find(
      (n) => n.id === chain.id,
    );
    expect(node?.data.issue).toBe(issues.get(chain.id));
    expect(issuesByNode(graphToSpec(graph)).size).toBe(0);
  });

  it('labels chain legs on their edges but not plain env edges', () => {
    const edges = toFlowEdges(graph, [graph.edges[0]!.id]);
    expect(edges.map((e) => e.label).sort()).toEqual(['first', 'second', undefined].sort());
    expect(edges.filter((e) => e.selected).map((e) => e.id)).toEqual([graph.edges[0]!.id]);
  });
});

describe('React Flow changes to edits', () => {
  it('collects drags and removals, and clears the selection when the selected node goes', () => {
    const changes: NodeChange<FlowNode>[] = [
      { type: 'position', id: 'a', position: { x: 1, y: 2 } },
      { type: 'position', id: 'b' },
      { type: 'remove', id: 'c' },
    ];
    expect(readNodeChanges(changes, 'c')).toEqual({
      moving: { a: { x: 1, y: 2 } },
      measured: {},
      removed: ['c'],
      selection: [null],
    });
    expect(readNodeChanges(changes, 'a').selection).toEqual([]);
  });

  it('keeps measured sizes and hands them back, so React Flow does not hide nodes to re-measure', () => {
    const changes: NodeChange<FlowNode>[] = [
      { type: 'dimensions', id: graph.nodes[0]!.id, dimensions: { width: 240, height: 64 } },
      { type: 'dimensions', id: 'b' },
    ];
    const { measured } = readNodeChanges(changes, undefined);
    expect(measured).toEqual({ [graph.nodes[0]!.id]: { width: 240, height: 64 } });
    const nodes = toFlowNodes(graph, new Map(), { dragging: {}, selectedId: undefined, measured });
    expect(nodes[0]!.measured).toEqual({ width: 240, height: 64 });
    expect(nodes[1]!.measured).toBeUndefined();
  });

  it('selects a node and clears only the selected one on deselect', () => {
    const select = (id: string, selected: boolean): NodeChange<FlowNode> => ({
      type: 'select',
      id,
      selected,
    });
    // Clicking y while x is selected: React Flow deselects x and selects y, in either order.
    expect(readNodeChanges([select('x', false), select('y', true)], 'x').selection).toEqual(['y']);
    expect(readNodeChanges([select('y', true), select('x', false)], 'x').selection).toEqual(['y']);
    expect(readNodeChanges([select('x', false)], 'x').selection).toEqual([null]);
    expect(readNodeChanges([select('z', false)], 'x').selection).toEqual([]);
  });

  it('removes edges and keeps the edge selection in order', () => {
    const changes: EdgeChange[] = [
      { type: 'select', id: 'e1', selected: true },
      { type: 'remove', id: 'e2' },
      { type: 'select', id: 'e3', selected: false },
    ];
    expect(readEdgeChanges(changes, ['e3', 'e1'])).toEqual({ removed: ['e2'], selected: ['e1'] });
    const untouched = ['e9'];
    expect(readEdgeChanges([{ type: 'remove', id: 'e9' }], untouched).selected).toBe(untouched);
  });

  it('places a new node below every node, at the leftmost column', () => {
    const placed: Graph = {
      nodes: [
        { ...chain, position: { x: 40, y: 100 } },
        { ...output, position: { x: 300, y: 20 } },
      ],
      edges: [],
    };
    // chain: 100 + 176 high, output: 20 + 64; 60 below the lowest bottom edge.
    expect(newNodePosition(placed)).toEqual({ x: 0, y: 336 });
    expect(newNodePosition({ nodes: [], edges: [] })).toEqual({ x: 0, y: 60 });
  });
});

describe('spec JSON import', () => {
  it('reads a spec into the graph it stands for', () => {
    const result = importSpecJson(
      JSON.stringify({ version: 1, env: { type: 'base', bridge: 'toy24', task: '1-1-1-12' } }),
    );
    expect(result.ok && graphToSpec(result.graph)).toEqual({
      ok: true,
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: '1-1-1-12' } },
    });
  });

  it('says what is wrong: not JSON, or where the spec breaks the schema', () => {
    const notJson = importSpecJson('{ version: 1');
    expect(notJson.ok ? '' : notJson.error).toMatch(/^not JSON: /);
    const bad = importSpecJson('{ "version": 1, "env": { "type": "stage", "env": {} } }');
    expect(bad.ok ? '' : bad.error).toMatch(/^invalid harness spec at env/);
  });
});
