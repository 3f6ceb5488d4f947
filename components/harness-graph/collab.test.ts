import { describe, expect, it } from 'vitest';
import { applyDraftOp, type DraftGraph, type OrderedDraftOp } from '../../contracts/draft.ts';
import {
  fromDraft,
  initSession,
  localEdit,
  receive,
  type Session,
  takeUnsent,
  toDraft,
  undoStep,
} from './collab.ts';
import { type Graph, newNode, specToGraph } from './model.ts';

const base = specToGraph({
  version: 1,
  env: {
    type: 'contract',
    code: 'line 1\nline 2\nline 3',
    env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
  },
});

/** A server: orders batches as they arrive and applies them to its graph. */
function server(graph: Graph) {
  let g: DraftGraph = toDraft(graph);
  const log: OrderedDraftOp[] = [];
  return {
    submit(clientId: string, batch: { clientSeq: number; ops: OrderedDraftOp['op'][] }) {
      batch.ops.forEach((op, i) => {
        g = applyDraftOp(g, op);
        log.push({
          seq: log.length + 1,
          clientId,
          clientSeq: batch.clientSeq + i,
          actor: clientId,
          op,
        });
      });
    },
    log,
    graph: () => g,
  };
}

function send(s: Session, id: string, srv: ReturnType<typeof server>): Session {
  const t = takeUnsent(s);
  if (!t) return s;
  srv.submit(id, t.batch);
  return t.session;
}

describe('co-editing sessions', () => {
  it('two people editing at once converge on the server’s graph', () => {
    const srv = server(base);
    let a = initSession(base, { live: true });
    let b = initSession(base, { live: true });
    const chain = newNode('chain', { x: 0, y: 300 });
    // Simultaneous: A edits line 1 and moves the base; B edits line 3, moves the base elsewhere,
    // adds a chain. Neither has seen the other's edits.
    a = localEdit(a, { type: 'update', id: 'env', data: { code: 'LINE 1\nline 2\nline 3' } });
    a = localEdit(a, { type: 'move', positions: { 'env.env': { x: 5, y: 5 } } });
    b = localEdit(b, { type: 'update', id: 'env', data: { code: 'line 1\nline 2\nLINE 3' } });
    b = localEdit(b, { type: 'move', positions: { 'env.env': { x: 9, y: 9 } } });
    b = localEdit(b, { type: 'add', node: chain });
    a = send(a, 'A', srv);
    b = send(b, 'B', srv);
    a = receive(a, srv.log, 'A');
    b = receive(b, srv.log, 'B');
    expect(a.pending).toEqual([]);
    expect(b.pending).toEqual([]);
    expect(a.view).toEqual(b.view);
    expect(a.view).toEqual(fromDraft(srv.graph()));
    const code = a.view.nodes.find((n) => n.id === 'env');
    expect(code?.data).toEqual({ code: 'LINE 1\nline 2\nLINE 3' });
    // B's move came later in the server's order: it wins.
    expect(a.view.nodes.find((n) => n.id === 'env.env')?.position).toEqual({ x: 9, y: 9 });
    expect(a.view.nodes.some((n) => n.id === chain.id)).toBe(true);
  });

  it('shows this tab’s edits at once, on top of others’ ordered ones', () => {
    const srv = server(base);
    let a = initSession(base, { live: true });
    let b = initSession(base, { live: true });
    b = send(localEdit(b, { type: 'move', positions: { output: { x: 1, y: 1 } } }), 'B', srv);
    a = localEdit(a, { type: 'move', positions: { env: { x: 2, y: 2 } } });
    a = receive(a, srv.log, 'A');
    expect(a.view.nodes.find((n) => n.id === 'env')?.position).toEqual({ x: 2, y: 2 });
    expect(a.view.nodes.find((n) => n.id === 'output')?.position).toEqual({ x: 1, y: 1 });
    expect(a.pending).toHaveLength(1);
  });

  it('undo reverts only my step, restoring a removed edge and node, and leaves others’ edits', () => {
    const srv = server(base);
    let a = initSession(base, { live: true });
    let b = initSession(base, { live: true });
    const edge = a.view.edges.find((e) => e.target === 'output')!;
    a = localEdit(a, { type: 'disconnect', ids: [edge.id] });
    a = localEdit(a, { type: 'remove', ids: ['env'] });
    expect(a.view.nodes.some((n) => n.id === 'env')).toBe(false);
    a = send(a, 'A', srv);
    b = send(localEdit(b, { type: 'move', positions: { output: { x: 7, y: 7 } } }), 'B', srv);
    a = receive(a, srv.log, 'A');
    a = undoStep(a, 'undo');
    expect(a.view.nodes.some((n) => n.id === 'env')).toBe(true);
    expect(a.view.edges.filter((e) => e.target === 'env')).toHaveLength(1);
    expect(a.view.edges.some((e) => e.id === edge.id)).toBe(false);
    a = undoStep(a, 'undo');
    expect(a.view.edges.some((e) => e.id === edge.id)).toBe(true);
    // B's move survives A's undo.
    expect(a.view.nodes.find((n) => n.id === 'output')?.position).toEqual({ x: 7, y: 7 });
    a = undoStep(a, 'redo');
    expect(a.view.edges.some((e) => e.id === edge.id)).toBe(false);
  });

  it('offline (no draft) edits are confirmed at once and typing is one undo step', () => {
    let s = initSession(base);
    s = localEdit(
      s,
      { type: 'update', id: 'env', data: { code: 'a' } },
      { coalesceKey: 'c', now: 0 },
    );
    s = localEdit(
      s,
      { type: 'update', id: 'env', data: { code: 'ab' } },
      { coalesceKey: 'c', now: 500 },
    );
    expect(s.pending).toEqual([]);
    expect(s.undo).toHaveLength(1);
    expect(takeUnsent(s)).toBeUndefined();
    s = undoStep(s, 'undo');
    expect(s.view.nodes.find((n) => n.id === 'env')?.data).toEqual({
      code: 'line 1\nline 2\nline 3',
    });
  });
});
