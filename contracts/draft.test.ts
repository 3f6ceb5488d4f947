import { describe, expect, it } from 'vitest';
import {
  applyDraftOp,
  applyDraftOps,
  type DraftGraph,
  type DraftOp,
  DraftOpSchema,
  FollowStateSchema,
  mergeLines,
} from './draft.ts';

const g0: DraftGraph = {
  nodes: [
    { id: 'env', kind: 'base', position: { x: 0, y: 0 }, data: { bridge: 'toy24', task: 't' } },
    { id: 'c', kind: 'contract', position: { x: 300, y: 0 }, data: { code: 'a\nb\nc\nd' } },
    { id: 'output', kind: 'output', position: { x: 600, y: 0 }, data: {} },
  ],
  edges: [{ id: 'e:c->output:env', source: 'c', target: 'output', targetHandle: 'env' }],
};

describe('mergeLines', () => {
  it('keeps both edits when they touch different lines, even adjacent ones', () => {
    expect(mergeLines('a\nb\nc\nd', 'a\nB\nc\nd', 'a\nb\nC\nd')).toBe('a\nB\nC\nd');
    expect(mergeLines('a\nb\nc\nd', 'A\nb\nc\nd', 'a\nb\nc\nD')).toBe('A\nb\nc\nD');
  });
  it('lets the edit being applied win on the same line', () => {
    expect(mergeLines('a\nb\nc', 'a\nX\nc', 'a\nY\nc')).toBe('a\nY\nc');
  });
  it('keeps insertions at the same point in a stable order', () => {
    expect(mergeLines('a\nb', 'a\nT\nb', 'a\nM\nb')).toBe('a\nT\nM\nb');
  });
  it('handles deletions against edits elsewhere', () => {
    expect(mergeLines('a\nb\nc\nd\ne', 'a\nc\nd\ne', 'a\nb\nc\nd\nE')).toBe('a\nc\nd\nE');
  });
  it('is exact when nothing conflicts', () => {
    expect(mergeLines('x', 'x', 'y')).toBe('y');
    expect(mergeLines('x', 'y', 'x')).toBe('y');
  });
});

describe('applyDraftOp', () => {
  it('applies field edits last-writer-wins and text edits per line', () => {
    const g1 = applyDraftOps(g0, [
      { type: 'text', id: 'c', field: 'code', base: 'a\nb\nc\nd', text: 'a\nB\nc\nd' },
      { type: 'text', id: 'c', field: 'code', base: 'a\nb\nc\nd', text: 'a\nb\nc\nD' },
      { type: 'set', id: 'env', field: 'task', value: 'one' },
      { type: 'set', id: 'env', field: 'task', value: 'two' },
    ]);
    expect(g1.nodes.find((n) => n.id === 'c')?.data.code).toBe('a\nB\nc\nD');
    expect(g1.nodes.find((n) => n.id === 'env')?.data.task).toBe('two');
  });

  it('drops a connection the graph no longer admits (occupied input, cycle)', () => {
    const first: DraftOp = {
      type: 'connect',
      edge: { source: 'env', target: 'c', targetHandle: 'env' },
    };
    const g1 = applyDraftOp(g0, first);
    expect(g1.edges).toHaveLength(2);
    const other = applyDraftOp(
      applyDraftOp(g1, {
        type: 'add',
        node: { id: 'b2', kind: 'base', position: { x: 0, y: 200 }, data: {} },
      }),
      { type: 'connect', edge: { source: 'b2', target: 'c', targetHandle: 'env' } },
    );
    expect(other.edges.filter((e) => e.target === 'c')).toHaveLength(1);
    expect(
      applyDraftOp(g1, {
        type: 'connect',
        edge: { source: 'output', target: 'env', targetHandle: 'env' },
      }),
    ).toBe(g1);
  });

  it('never removes the output, and removes a node with its edges', () => {
    const g1 = applyDraftOp(g0, { type: 'remove', ids: ['c', 'output'] });
    expect(g1.nodes.map((n) => n.id)).toEqual(['env', 'output']);
    expect(g1.edges).toEqual([]);
  });

  it('converges: two orders of the same edits give one graph only when applied in one order', () => {
    // The server orders; every client applies that order: same input, same output.
    const ops: DraftOp[] = [
      { type: 'move', positions: { env: { x: 5, y: 5 } } },
      { type: 'move', positions: { env: { x: 9, y: 9 } } },
      { type: 'set', id: 'c', field: 'code', value: 'z' },
    ];
    expect(applyDraftOps(g0, ops)).toEqual(applyDraftOps(structuredClone(g0), ops));
    expect(applyDraftOps(g0, ops).nodes[0]?.position).toEqual({ x: 9, y: 9 });
  });

  it('lets a presenter share only paths of this studio', () => {
    const state = { clientId: 'c', name: 'n', colour: '#000000', viewport: null, active: true };
    expect(FollowStateSchema.safeParse({ ...state, href: '/runs/x?step=2' }).success).toBe(true);
    for (const href of ['//evil.example', '/\\evil.example', 'https://evil.example'])
      expect(FollowStateSchema.safeParse({ ...state, href }).success, href).toBe(false);
  });

  it('refuses malformed edits at the schema', () => {
    expect(DraftOpSchema.safeParse({ type: 'move', positions: { a: { x: 'no' } } }).success).toBe(
      false,
    );
    expect(DraftOpSchema.safeParse({ type: 'explode' }).success).toBe(false);
  });
});
