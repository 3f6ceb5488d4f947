// The editor's edits as a session that can be shared: every command (model.ts) becomes draft edits
// (contracts/draft.ts) — field by field, hook code as a text edit merged per line — applied at once
// on screen and, in a live draft, sent to the server, which orders them. The screen shows the
// server's graph with this tab's not-yet-ordered edits on top; when the server's order comes back
// the graph is recomputed from it, so every tab ends on the same graph. Undo is per person: it
// reverts what that person's own step changed (computed from the step's before/after), applied to
// the graph as it now is, so it never undoes someone else's edit. Pure, tested in collab.test.ts.
import {
  applyDraftOp,
  applyDraftOps,
  type DraftGraph,
  type DraftOp,
  jsonEqual,
  type OrderedDraftOp,
} from '../../contracts/draft.ts';
import type { Json } from '../../contracts/json.ts';
import type { Command, Graph, GraphNode } from './model.ts';

/** Node data fields edited as text (merged per line when two people edit them). */
const TEXT_FIELDS = new Set(['code', 'when']);

// The editor's Graph is a DraftGraph with typed node data: the same JSON.
export const toDraft = (g: Graph): DraftGraph => JSON.parse(JSON.stringify(g)) as DraftGraph;
export const fromDraft = (g: DraftGraph): Graph => g as unknown as Graph;

type Data = Record<string, Json | undefined>;

function fieldOps(id: string, before: Data, after: Data): DraftOp[] {
  const ops: DraftOp[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[field];
    const b = after[field];
    if (jsonEqual(a, b)) continue;
    if (TEXT_FIELDS.has(field) && typeof a === 'string' && typeof b === 'string') {
      ops.push({ type: 'text', id, field, base: a, text: b });
    } else {
      ops.push(b === undefined ? { type: 'set', id, field } : { type: 'set', id, field, value: b });
    }
  }
  return ops;
}

const dataOf = (n: GraphNode): Data => JSON.parse(JSON.stringify(n.data)) as Data;

/** The draft edits of one editor command on graph `g`. */
export function commandToOps(g: Graph, cmd: Command): DraftOp[] {
  switch (cmd.type) {
    case 'add':
      return [{ type: 'add', node: toDraft({ nodes: [cmd.node], edges: [] }).nodes[0]! }];
    case 'remove':
      return cmd.ids.length ? [{ type: 'remove', ids: cmd.ids }] : [];
    case 'move':
      return Object.keys(cmd.positions).length ? [{ type: 'move', positions: cmd.positions }] : [];
    case 'connect':
      return [{ type: 'connect', edge: cmd.edge }];
    case 'disconnect':
      return cmd.ids.length ? [{ type: 'disconnect', ids: cmd.ids }] : [];
    case 'update': {
      const node = g.nodes.find((n) => n.id === cmd.id);
      if (!node) return [];
      return fieldOps(cmd.id, dataOf(node), JSON.parse(JSON.stringify(cmd.data)) as Data);
    }
    case 'replace':
      return [{ type: 'replace', graph: toDraft(cmd.graph) }];
  }
}

/** Edits that turn `from` into `to` (used to undo a step onto the graph as it now is). */
export function diffOps(from: Graph, to: Graph): DraftOp[] {
  const fromNodes = new Map(from.nodes.map((n) => [n.id, n]));
  const toNodes = new Map(to.nodes.map((n) => [n.id, n]));
  const toEdges = new Set(to.edges.map((e) => e.id));
  const fromEdges = new Set(from.edges.map((e) => e.id));
  const ops: DraftOp[] = [];
  const removed = from.nodes.filter((n) => !toNodes.has(n.id)).map((n) => n.id);
  const gone = from.edges
    .filter((e) => !toEdges.has(e.id) && !removed.includes(e.source) && !removed.includes(e.target))
    .map((e) => e.id);
  if (gone.length) ops.push({ type: 'disconnect', ids: gone });
  if (removed.length) ops.push({ type: 'remove', ids: removed });
  for (const n of to.nodes) {
    if (!fromNodes.has(n.id)) ops.push(...commandToOps(from, { type: 'add', node: n }));
  }
  const positions: Record<string, { x: number; y: number }> = {};
  for (const n of to.nodes) {
    const f = fromNodes.get(n.id);
    if (!f) continue;
    if (f.position.x !== n.position.x || f.position.y !== n.position.y)
      positions[n.id] = n.position;
    ops.push(...fieldOps(n.id, dataOf(f), dataOf(n)));
  }
  if (Object.keys(positions).length) ops.push({ type: 'move', positions });
  for (const e of to.edges) {
    if (!fromEdges.has(e.id)) {
      ops.push({
        type: 'connect',
        edge: { source: e.source, target: e.target, targetHandle: e.targetHandle },
      });
    }
  }
  return ops;
}

/** Fewer edits that do the same: consecutive moves merge; consecutive text edits of one field chain. */
export function compactOps(ops: DraftOp[]): DraftOp[] {
  const out: DraftOp[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (last?.type === 'move' && op.type === 'move') {
      out[out.length - 1] = { type: 'move', positions: { ...last.positions, ...op.positions } };
    } else if (
      last?.type === 'text' &&
      op.type === 'text' &&
      last.id === op.id &&
      last.field === op.field &&
      last.text === op.base
    ) {
      out[out.length - 1] = { ...last, text: op.text };
    } else out.push(op);
  }
  return out;
}

interface Step {
  before: Graph;
  after: Graph;
  key?: string | undefined;
  at: number;
}

export interface Session {
  /** The server's graph after edit `seq` (or, offline, the graph itself). */
  confirmed: Graph;
  seq: number;
  /** This tab's edits the server has not ordered yet; `clientSeq` once sent. */
  pending: { op: DraftOp; clientSeq: number | null }[];
  /** What the screen shows: the confirmed graph with the pending edits on top. */
  view: Graph;
  undo: Step[];
  redo: Step[];
  /** Whether edits go to a live draft (else they are confirmed at once). */
  live: boolean;
  nextClientSeq: number;
}

const COALESCE_MS = 1500;
const HISTORY_LIMIT = 200;

export function initSession(graph: Graph, o: { live?: boolean; seq?: number } = {}): Session {
  return {
    confirmed: graph,
    seq: o.seq ?? 0,
    pending: [],
    view: graph,
    undo: [],
    redo: [],
    live: o.live ?? false,
    nextClientSeq: 1,
  };
}

function withOps(s: Session, ops: DraftOp[]): Session {
  const view = applyDraftOps(toDraftFast(s.view), ops) as unknown as Graph;
  if (!s.live) return { ...s, confirmed: view, view };
  return { ...s, view, pending: [...s.pending, ...ops.map((op) => ({ op, clientSeq: null }))] };
}

// The view is already plain JSON (it came from the model or the wire): no copy needed.
const toDraftFast = (g: Graph): DraftGraph => g as unknown as DraftGraph;

/** A person's edit: applied on screen, queued for the server, one undo step (typing coalesces). */
export function localEdit(
  s: Session,
  cmd: Command,
  o: { coalesceKey?: string | undefined; now?: number } = {},
): Session {
  const ops = commandToOps(s.view, cmd);
  if (ops.length === 0) return s;
  const next = withOps(s, ops);
  if (next.view === s.view) return s;
  const now = o.now ?? Date.now();
  const last = s.undo.at(-1);
  const undo =
    o.coalesceKey && last?.key === o.coalesceKey && now - last.at < COALESCE_MS
      ? [...s.undo.slice(0, -1), { ...last, after: next.view, at: now }]
      : [...s.undo, { before: s.view, after: next.view, key: o.coalesceKey, at: now }].slice(
          -HISTORY_LIMIT,
        );
  return { ...next, undo, redo: [] };
}

/** Undo this person's last step (or redo their last undo) onto the graph as it now is. */
export function undoStep(s: Session, which: 'undo' | 'redo'): Session {
  const stack = which === 'undo' ? s.undo : s.redo;
  const step = stack.at(-1);
  if (!step) return s;
  const next = withOps(s, diffOps(step.after, step.before));
  const inverse: Step = { before: s.view, after: next.view, at: 0 };
  return which === 'undo'
    ? { ...next, undo: s.undo.slice(0, -1), redo: [...s.redo, inverse] }
    : { ...next, redo: s.redo.slice(0, -1), undo: [...s.undo, inverse] };
}

/** The unsent edits, compacted and numbered for the server; the session marks them sent. */
export function takeUnsent(
  s: Session,
): { session: Session; batch: { clientSeq: number; ops: DraftOp[] } } | undefined {
  const unsent = s.pending.filter((p) => p.clientSeq === null);
  if (!s.live || unsent.length === 0) return undefined;
  const ops = compactOps(unsent.map((p) => p.op));
  const first = s.nextClientSeq;
  const sent = s.pending.filter((p) => p.clientSeq !== null);
  return {
    session: {
      ...s,
      pending: [...sent, ...ops.map((op, i) => ({ op, clientSeq: first + i }))],
      nextClientSeq: first + ops.length,
    },
    batch: { clientSeq: first, ops },
  };
}

/** Edits the server ordered (anyone's, this tab's included): the screen follows the server. */
export function receive(s: Session, ordered: OrderedDraftOp[], me: string): Session {
  let confirmed = toDraftFast(s.confirmed);
  let seq = s.seq;
  let ownUpTo = -1;
  for (const o of ordered) {
    if (o.seq <= seq) continue; // seen already (a resumed stream)
    confirmed = applyDraftOp(confirmed, o.op);
    seq = o.seq;
    if (o.clientId === me) ownUpTo = Math.max(ownUpTo, o.clientSeq);
  }
  if (seq === s.seq) return s;
  const pending = s.pending.filter((p) => p.clientSeq === null || p.clientSeq > ownUpTo);
  const view = applyDraftOps(
    confirmed,
    pending.map((p) => p.op),
  );
  return {
    ...s,
    confirmed: confirmed as unknown as Graph,
    seq,
    pending,
    view: view as unknown as Graph,
  };
}

/** A batch the server refused: its edits are dropped and the screen shows the server's graph again. */
export function dropSent(s: Session, clientSeqs: Set<number>): Session {
  const pending = s.pending.filter((p) => p.clientSeq === null || !clientSeqs.has(p.clientSeq));
  const view = applyDraftOps(
    toDraftFast(s.confirmed),
    pending.map((p) => p.op),
  ) as unknown as Graph;
  return { ...s, pending, view };
}
