import { describe, expect, it } from 'vitest';
import type { SpecValidation } from '../../contracts/validation.ts';
import { type Graph, graphToSpec, newNode, specToGraph } from './model.ts';
import {
  editorValidation,
  nodeIdsByPath,
  nodeIssues,
  placeProblems,
  problemText,
} from './validation.ts';

const leaf = { type: 'base', bridge: 'household', task: 'train-0001' } as const;
const fromSpec = specToGraph({
  version: 1,
  env: {
    type: 'chain',
    mode: 'sequential',
    first: { type: 'contract', code: 'x', env: leaf },
    second: { ...leaf, task: 'train-99999' },
  },
});

/** The same stack built in the editor: ids of its own, not spec paths. */
function edited(): { graph: Graph; contract: string; base: string } {
  const base = newNode('base', { x: 0, y: 0 });
  const contract = newNode('contract', { x: 0, y: 0 });
  const output = { id: 'output', kind: 'output', position: { x: 0, y: 0 }, data: {} } as const;
  return {
    graph: {
      nodes: [base, contract, output],
      edges: [
        { id: 'a', source: base.id, target: contract.id, targetHandle: 'env' },
        { id: 'b', source: contract.id, target: 'output', targetHandle: 'env' },
      ],
    },
    contract: contract.id,
    base: base.id,
  };
}

describe('validation problems on graph nodes', () => {
  it('maps spec paths to node ids, for nodes made in the editor too', () => {
    expect([...nodeIdsByPath(fromSpec).keys()].sort()).toEqual(
      ['env', 'env.first', 'env.first.env', 'env.second'].sort(),
    );
    const e = edited();
    expect(nodeIdsByPath(e.graph)).toEqual(
      new Map([
        ['env', e.contract],
        ['env.env', e.base],
      ]),
    );
  });

  it('puts each problem on its node, and the rest in the general list', () => {
    const e = edited();
    const placed = placeProblems(e.graph, [
      { path: 'env', message: 'SyntaxError', line: 2, column: 13 },
      { path: 'env.env', message: "unknown task 'x'" },
      { path: 'version', message: 'Invalid input' },
    ]);
    expect(placed.byNode.get(e.contract)?.map(problemText)).toEqual(['line 2:13 — SyntaxError']);
    expect(placed.byNode.get(e.base)?.[0]?.message).toBe("unknown task 'x'");
    expect(placed.general.map((p) => p.path)).toEqual(['version']);
    // The graph's own issue on a node comes first; validation adds the others.
    const issues = nodeIssues(new Map([[e.base, 'connect it']]), placed);
    expect(issues.get(e.base)).toBe('connect it');
    expect(issues.get(e.contract)).toBe('line 2:13 — SyntaxError');
  });

  it('is valid only for the spec on screen, once the server said so', () => {
    const spec = graphToSpec(fromSpec);
    const key = JSON.stringify(spec.ok ? spec.spec : null);
    const runs: SpecValidation = { valid: true, problems: [] };
    const fails: SpecValidation = { valid: false, problems: [{ path: 'env', message: 'x' }] };
    expect(editorValidation(spec, key, undefined).state).toBe('checking');
    expect(editorValidation(spec, key, { key: 'older', result: runs }).state).toBe('checking');
    expect(editorValidation(spec, key, { key, result: runs }).state).toBe('valid');
    expect(editorValidation(spec, key, { key, result: fails }).state).toBe('invalid');
    expect(editorValidation(spec, key, { key, error: 'offline' })).toEqual({
      state: 'error',
      message: 'offline',
    });
    expect(editorValidation(graphToSpec(edited().graph), null, undefined).state).toBe('draft');
  });
});
