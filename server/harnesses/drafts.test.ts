// Live co-editing's server side on a real (embedded) database: edits are ordered per draft and the
// stored graph is the edits applied in that order; concurrent submitters converge; the draft is in
// the database (a new service over it — a restarted studio — has it); watchers see edits at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDraftOps, type DraftGraph } from '../../contracts/draft.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { Drafts } from './drafts.ts';

let handle: TestDb;

beforeAll(async () => {
  handle = await createTestDb('pglite');
}, 60_000);

afterAll(async () => {
  await handle?.close();
});

const graph: DraftGraph = {
  nodes: [
    { id: 'env', kind: 'base', position: { x: 0, y: 0 }, data: { bridge: 'toy24', task: 't' } },
    { id: 'c', kind: 'contract', position: { x: 300, y: 0 }, data: { code: 'a\nb\nc' } },
    { id: 'output', kind: 'output', position: { x: 600, y: 0 }, data: {} },
  ],
  edges: [],
};

describe('drafts', () => {
  it('orders concurrent edits once, stores the graph they make, and survives a restart', async () => {
    const drafts = new Drafts(handle.db);
    const d = await drafts.create({ graph, projectId: null, by: 'local' });
    await Promise.all([
      drafts.submit({
        id: d.id,
        projectId: null,
        clientId: 'A',
        clientSeq: 1,
        actor: 'local',
        ops: [
          { type: 'text', id: 'c', field: 'code', base: 'a\nb\nc', text: 'A\nb\nc' },
          { type: 'connect', edge: { source: 'env', target: 'c', targetHandle: 'env' } },
        ],
      }),
      drafts.submit({
        id: d.id,
        projectId: null,
        clientId: 'B',
        clientSeq: 1,
        actor: 'local',
        ops: [
          { type: 'text', id: 'c', field: 'code', base: 'a\nb\nc', text: 'a\nb\nC' },
          { type: 'move', positions: { c: { x: 10, y: 20 } } },
        ],
      }),
    ]);
    const restarted = new Drafts(handle.db);
    const stored = await restarted.get(d.id, null);
    expect(stored.seq).toBe(4);
    const ops = await restarted.opsAfter(d.id, 0);
    expect(ops.map((o) => o.seq)).toEqual([1, 2, 3, 4]);
    // Replaying the log in its order gives the stored graph, as every client computes it.
    expect(
      applyDraftOps(
        graph,
        ops.map((o) => o.op),
      ),
    ).toEqual(stored.graph);
    expect(stored.graph.nodes.find((n) => n.id === 'c')?.data.code).toBe('A\nb\nC');
    expect(stored.graph.edges).toHaveLength(1);
  });

  it('two processes writing one draft keep one order (compare-and-set on seq, then retry)', async () => {
    const one = new Drafts(handle.db);
    const two = new Drafts(handle.db);
    const d = await one.create({ graph, projectId: null, by: 'local' });
    const edit = (who: Drafts, clientId: string, x: number) =>
      who.submit({
        id: d.id,
        projectId: null,
        clientId,
        clientSeq: x,
        actor: 'local',
        ops: [{ type: 'move', positions: { env: { x, y: x } } }],
      });
    await Promise.all([edit(one, 'A', 1), edit(two, 'B', 2), edit(one, 'A', 3), edit(two, 'B', 4)]);
    const ops = await one.opsAfter(d.id, 0);
    expect(ops.map((o) => o.seq)).toEqual([1, 2, 3, 4]);
    const stored = await new Drafts(handle.db).get(d.id, null);
    expect(stored.seq).toBe(4);
    expect(
      applyDraftOps(
        graph,
        ops.map((o) => o.op),
      ),
    ).toEqual(stored.graph);
  });

  it('hides another project’s draft and refuses empty submissions', async () => {
    const drafts = new Drafts(handle.db);
    const d = await drafts.create({ graph, projectId: 'p1', by: 'u' });
    await expect(drafts.get(d.id, 'p2')).rejects.toThrow(`draft '${d.id}' not found`);
    await expect(
      drafts.submit({
        id: d.id,
        projectId: 'p1',
        clientId: 'x',
        clientSeq: 0,
        actor: 'u',
        ops: [],
      }),
    ).rejects.toThrow('send 1 to 200 edits at a time');
  });

  it('wakes watchers with the new edit and with presence changes', async () => {
    const drafts = new Drafts(handle.db);
    const d = await drafts.create({ graph, projectId: null, by: 'local' });
    const abort = new AbortController();
    const events = drafts.watch(d.id, 0, abort.signal);
    const first = await events.next();
    expect(first.value).toEqual({ type: 'presence', people: [] });
    const started = Date.now();
    const next = events.next();
    await drafts.submit({
      id: d.id,
      projectId: null,
      clientId: 'A',
      clientSeq: 1,
      actor: 'local',
      ops: [{ type: 'move', positions: { env: { x: 1, y: 1 } } }],
    });
    const got = await next;
    expect(got.value).toMatchObject({ type: 'ops', ops: [{ seq: 1, clientId: 'A' }] });
    // Woken by the submit, not by the 1 s poll.
    expect(Date.now() - started).toBeLessThan(900);
    const after = events.next();
    await drafts.setPresence(d.id, null, {
      clientId: 'A',
      name: 'Ada',
      colour: '#aa3300',
      selection: ['env'],
    });
    expect((await after).value).toMatchObject({
      type: 'presence',
      people: [{ name: 'Ada', selection: ['env'] }],
    });
    abort.abort();
    await events.return(undefined);
  });

  it('keeps the presenters of each scope apart', async () => {
    const drafts = new Drafts(handle.db);
    const abort = new AbortController();
    const watch = drafts.watchPresenters('p1', abort.signal);
    expect((await watch.next()).value).toEqual([]);
    const next = watch.next();
    drafts.present('p2', {
      clientId: 'x',
      name: 'Other',
      colour: '#000000',
      href: '/runs',
      viewport: null,
      active: true,
    });
    drafts.present('p1', {
      clientId: 'y',
      name: 'Ada',
      colour: '#112233',
      href: '/runs/1?step=3',
      viewport: null,
      active: true,
    });
    expect((await next).value).toEqual([
      expect.objectContaining({ name: 'Ada', href: '/runs/1?step=3' }),
    ]);
    abort.abort();
  });
});
