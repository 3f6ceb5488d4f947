// Live co-editing of a harness graph: the draft's graph as it crosses the wire (node data as plain
// JSON, so new node fields need no change here), the edits people make to it, and how an edit
// applies. The server orders every edit of a draft (a sequence number) and applies it to the stored
// graph; every client applies the same edits in the same order, so all converge on one graph.
// Conflicts resolve deterministically: the later edit of a field wins (last writer wins per
// field), text fields (hook code) merge per line, and an edge that the graph no longer admits
// (occupied input, cycle) is dropped by whoever applies it — the same way everywhere.
import { z } from 'zod';
import { type Json, JsonSchemaZ } from './json.ts';

export const DRAFT_NODE_KINDS = ['base', 'stage', 'contract', 'chain', 'output'] as const;
export const MAX_DRAFT_NODES = 400;
export const MAX_DRAFT_TEXT = 64 * 1024;

const IdSchema = z.string().min(1).max(200);
const XYSchema = z.object({ x: z.number().finite(), y: z.number().finite() });
export type DraftXY = z.infer<typeof XYSchema>;

export const DraftNodeSchema = z.object({
  id: IdSchema,
  kind: z.enum(DRAFT_NODE_KINDS),
  position: XYSchema,
  data: z.record(z.string(), JsonSchemaZ),
});
export type DraftNode = z.infer<typeof DraftNodeSchema>;

export const DraftEdgeSchema = z.object({
  id: IdSchema,
  source: IdSchema,
  target: IdSchema,
  targetHandle: z.string().min(1).max(40),
});
export type DraftEdge = z.infer<typeof DraftEdgeSchema>;

export const DraftGraphSchema = z.object({
  nodes: z.array(DraftNodeSchema).max(MAX_DRAFT_NODES),
  edges: z.array(DraftEdgeSchema).max(MAX_DRAFT_NODES),
});
export type DraftGraph = z.infer<typeof DraftGraphSchema>;

/** One edit of a draft. `set` replaces one field of a node's data; `text` merges a text field. */
export const DraftOpSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), node: DraftNodeSchema }),
  z.object({ type: z.literal('remove'), ids: z.array(IdSchema).min(1).max(MAX_DRAFT_NODES) }),
  z.object({ type: z.literal('move'), positions: z.record(IdSchema, XYSchema) }),
  z.object({
    type: z.literal('connect'),
    edge: DraftEdgeSchema.omit({ id: true }),
  }),
  z.object({ type: z.literal('disconnect'), ids: z.array(IdSchema).min(1).max(MAX_DRAFT_NODES) }),
  z.object({
    type: z.literal('set'),
    id: IdSchema,
    field: z.string().min(1).max(60),
    /** Absent: the field is removed. */
    value: JsonSchemaZ.optional(),
  }),
  z.object({
    type: z.literal('text'),
    id: IdSchema,
    field: z.string().min(1).max(60),
    /** The text the editor saw before the edit, and after it: the edit is merged per line. */
    base: z.string().max(MAX_DRAFT_TEXT),
    text: z.string().max(MAX_DRAFT_TEXT),
  }),
  z.object({ type: z.literal('replace'), graph: DraftGraphSchema }),
]);
export type DraftOp = z.infer<typeof DraftOpSchema>;

/** An edit as the server ordered it: its place in the draft and who made it. */
export const OrderedDraftOpSchema = z.object({
  seq: z.number().int().min(1),
  clientId: z.string(),
  /** The client's own counter, so it recognises its edits coming back. */
  clientSeq: z.number().int(),
  actor: z.string(),
  op: DraftOpSchema,
});
export type OrderedDraftOp = z.infer<typeof OrderedDraftOpSchema>;

/** Who is in a draft (or watching the studio), where they are and what they selected. */
export const PresenceSchema = z.object({
  clientId: z.string().min(1).max(80),
  name: z.string().min(1).max(80),
  colour: z.string().regex(/^#[0-9a-f]{6}$/i),
  /** Selected node and edge ids in the draft. */
  selection: z.array(IdSchema).max(50).default([]),
});
export type Presence = z.infer<typeof PresenceSchema>;

/** What a presenter shares with the people following them: the page and the graph's viewport. */
export const FollowStateSchema = z.object({
  clientId: z.string().min(1).max(80),
  name: z.string().min(1).max(80),
  colour: z.string().regex(/^#[0-9a-f]{6}$/i),
  /** Path and query of the presenter's page (`/runs/x/episodes/y?step=4`). */
  href: z
    .string()
    .max(2000)
    // A path of this studio only: `//host` or `/\host` would lead a follower to another site.
    .regex(/^\/(?![/\\])/, 'must be a path of this studio, e.g. /runs'),
  viewport: z.object({ x: z.number(), y: z.number(), zoom: z.number() }).nullable(),
  /** False when the presenter stopped. */
  active: z.boolean(),
});
export type FollowState = z.infer<typeof FollowStateSchema>;

export function draftEdgeId(source: string, target: string, handle: string): string {
  return `e:${source}->${target}:${handle}`;
}

/** Whether following edges downstream from `from` arrives at `to`. */
function reaches(edges: DraftEdge[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of edges) if (e.source === id) stack.push(e.target);
  }
  return false;
}

/**
 * Why the graph does not admit an edge (generic rules: a harness is a tree), or undefined. The
 * editor also checks the node kinds' ports before it sends one.
 */
export function draftConnectProblem(
  g: DraftGraph,
  e: { source: string; target: string; targetHandle: string },
): string | undefined {
  const source = g.nodes.find((n) => n.id === e.source);
  const target = g.nodes.find((n) => n.id === e.target);
  if (!source || !target) return 'unknown node';
  if (source.id === target.id) return 'a node cannot wrap itself';
  if (source.kind === 'output') return 'the harness output has no outgoing port';
  if (g.edges.some((x) => x.target === e.target && x.targetHandle === e.targetHandle))
    return 'input already connected';
  if (g.edges.some((x) => x.source === e.source)) return 'each environment feeds one wrapper';
  if (reaches(g.edges, e.target, e.source)) return 'that connection would make a cycle';
  return undefined;
}

/** The graph after one edit; the same graph object when the edit changes nothing. */
export function applyDraftOp(g: DraftGraph, op: DraftOp): DraftGraph {
  switch (op.type) {
    case 'add':
      if (g.nodes.some((n) => n.id === op.node.id)) return g;
      return { ...g, nodes: [...g.nodes, op.node] };
    case 'remove': {
      // The output is the harness itself: it is never removed.
      const ids = new Set(
        op.ids.filter((id) => g.nodes.some((n) => n.id === id && n.kind !== 'output')),
      );
      if (ids.size === 0) return g;
      return {
        nodes: g.nodes.filter((n) => !ids.has(n.id)),
        edges: g.edges.filter((e) => !ids.has(e.source) && !ids.has(e.target)),
      };
    }
    case 'move': {
      let changed = false;
      const nodes = g.nodes.map((n) => {
        const p = op.positions[n.id];
        if (!p || (p.x === n.position.x && p.y === n.position.y)) return n;
        changed = true;
        return { ...n, position: { x: p.x, y: p.y } };
      });
      return changed ? { ...g, nodes } : g;
    }
    case 'connect': {
      if (draftConnectProblem(g, op.edge)) return g;
      const id = draftEdgeId(op.edge.source, op.edge.target, op.edge.targetHandle);
      return { ...g, edges: [...g.edges, { ...op.edge, id }] };
    }
    case 'disconnect': {
      const ids = new Set(op.ids);
      const edges = g.edges.filter((e) => !ids.has(e.id));
      return edges.length === g.edges.length ? g : { ...g, edges };
    }
    case 'set': {
      const node = g.nodes.find((n) => n.id === op.id);
      if (!node) return g;
      if (jsonEqual(node.data[op.field], op.value)) return g;
      const data = { ...node.data };
      if (op.value === undefined) delete data[op.field];
      else data[op.field] = op.value;
      return { ...g, nodes: g.nodes.map((n) => (n === node ? { ...n, data } : n)) };
    }
    case 'text': {
      const node = g.nodes.find((n) => n.id === op.id);
      if (!node) return g;
      const current =
        typeof node.data[op.field] === 'string' ? (node.data[op.field] as string) : '';
      const merged = mergeLines(op.base, current, op.text);
      if (merged === current && typeof node.data[op.field] === 'string') return g;
      const data = { ...node.data, [op.field]: merged };
      return { ...g, nodes: g.nodes.map((n) => (n === node ? { ...n, data } : n)) };
    }
    case 'replace':
      return op.graph;
  }
}

export function applyDraftOps(g: DraftGraph, ops: Iterable<DraftOp>): DraftGraph {
  let out = g;
  for (const op of ops) out = applyDraftOp(out, op);
  return out;
}

export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

// ───────────────────────── per-line three-way merge ─────────────────────────

/** A change of `base`: lines [start, end) of base replaced by `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/** The hunks that turn `a` into `b` (common prefix and suffix first, then an LCS on the rest). */
function hunks(a: string[], b: string[]): Hunk[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (
    suf < a.length - pre &&
    suf < b.length - pre &&
    a[a.length - 1 - suf] === b[b.length - 1 - suf]
  )
    suf++;
  const A = a.slice(pre, a.length - suf);
  const B = b.slice(pre, b.length - suf);
  if (A.length === 0 && B.length === 0) return [];
  // A middle too large for a table is one hunk (still a correct merge, only coarser).
  if (A.length * B.length > 4_000_000) return [{ start: pre, end: pre + A.length, lines: B }];
  const n = A.length;
  const m = B.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] =
        A[i] === B[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | undefined;
  const flush = () => {
    if (open) out.push(open);
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && A[i] === B[j]) {
      flush();
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      open ??= { start: pre + i, end: pre + i, lines: [] };
      open.lines.push(B[j]!);
      j++;
    } else {
      open ??= { start: pre + i, end: pre + i, lines: [] };
      open.end = pre + i + 1;
      i++;
    }
  }
  flush();
  return out;
}

/**
 * Three-way merge per line: the changes `base` → `theirs` (the text as it stands) and `base` →
 * `mine` (the edit being applied) are both kept where they touch different lines; where they touch
 * the same lines, the edit being applied wins (it is the later one in the draft's order).
 */
export function mergeLines(base: string, theirs: string, mine: string): string {
  if (theirs === base) return mine;
  if (mine === base || mine === theirs) return theirs;
  const B = base.split('\n');
  const T = hunks(B, theirs.split('\n'));
  const M = hunks(B, mine.split('\n'));
  // Their hunks that share a line with one of mine are dropped (mine wins). Insertions at the same
  // point as another change touch no common line: both are kept, theirs first.
  const overlaps = (a: Hunk, b: Hunk) => a.start < b.end && b.start < a.end;
  const kept = T.filter((t) => !M.some((m) => overlaps(t, m)));
  const all = [...kept, ...M].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: string[] = [];
  let at = 0;
  for (const h of all) {
    if (h.start < at) continue; // cannot happen after the filter; kept for safety
    out.push(...B.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  out.push(...B.slice(at));
  return out.join('\n');
}
