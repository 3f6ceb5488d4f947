// WebArena's accessibility-tree observation (browser_env/processors.py), from Chromium's own tree
// (CDP `Accessibility.getFullAXTree`) and layout (`DOMSnapshot.captureSnapshot`): the same node
// rules (empty generic nodes dropped, ignored properties, StaticText repeating a line above
// dropped), the same `[id] role 'name' property: value` lines indented by depth, and the same
// current-viewport filter (a node is kept when ≥ 60% of it is in the viewport).
//
// Ours, on purpose: element ids are given per document in a pre-order walk of its whole tree (1, 2,
// 3… on first sight; nodes that appear later, such as typed text, get the next free numbers), not
// Chromium's backend node ids, so the same page gives the same ids in every run, after a restore
// and on every machine, and an id stays valid while its document lives; `url` properties are dropped (they would carry the
// loopback port); the viewport ratio is the overlap's share of the node's area (WebArena's formula
// divides by the width only).
import type { Json } from '../core/types.ts';

export interface AXValue {
  type?: string;
  value?: unknown;
}
export interface AXNode {
  nodeId: string;
  ignored?: boolean;
  role?: AXValue;
  name?: AXValue;
  properties?: { name: string; value: AXValue }[];
  childIds?: string[];
  backendDOMNodeId?: number;
}
export interface Bound {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TreeOptions {
  /** WebArena's `current_viewport_only`. */
  viewportOnly: boolean;
  viewport: { width: number; height: number };
  /** Page scroll offset (bounds are document coordinates). */
  scroll: { x: number; y: number };
}

export const IGNORED_PROPERTIES = new Set([
  'focusable',
  'editable',
  'readonly',
  'level',
  'settable',
  'multiline',
  'invalid',
  // ours: a link's url would carry the real loopback port
  'url',
]);
const EMPTY_DROPPED = new Set([
  'generic',
  'img',
  'list',
  'strong',
  'paragraph',
  'banner',
  'navigation',
  'Section',
  'LabelText',
  'Legend',
  'listitem',
]);
export const IN_VIEWPORT_RATIO = 0.6;

/** Python's repr() of a str, as WebArena prints names. */
export function pyRepr(s: string): string {
  const body = s.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\t', '\\t');
  if (s.includes("'") && !s.includes('"')) return `"${body}"`;
  return `'${body.replaceAll("'", "\\'")}'`;
}

function pyValue(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export interface RenderedTree {
  /** The tree text (no tab line). */
  text: string;
  /** Element id -> Chromium backend node id, for every node of the page that has one. */
  targets: Map<number, number>;
  /** Ids of the nodes the full-page rendering prints (what an agent may act on). */
  valid: Set<number>;
  /** Element id -> the line printed for it (full page). */
  lines: Map<number, string>;
}

function lineOf(node: AXNode, id: number): string | undefined {
  const role = node.role?.value;
  const name = node.name?.value;
  if (typeof role !== 'string' || typeof name !== 'string') return undefined;
  if (role === 'InlineTextBox') return undefined;
  let str = `[${id}] ${role} ${pyRepr(name)}`;
  const props: string[] = [];
  for (const p of node.properties ?? []) {
    if (IGNORED_PROPERTIES.has(p.name)) continue;
    if (!p.value || !('value' in p.value)) continue;
    props.push(`${p.name}: ${pyValue(p.value.value)}`);
  }
  if (props.length > 0) str += ` ${props.join(' ')}`;
  if (!name.trim()) {
    if (props.length === 0 && EMPTY_DROPPED.has(role)) return undefined;
    if (props.length > 0 && role === 'listitem') return undefined;
  }
  return str;
}

function inViewport(b: Bound | undefined, o: TreeOptions): boolean {
  if (!b || b.width === 0 || b.height === 0) return false;
  const left = b.x - o.scroll.x;
  const top = b.y - o.scroll.y;
  const w = Math.max(0, Math.min(left + b.width, o.viewport.width) - Math.max(left, 0));
  const h = Math.max(0, Math.min(top + b.height, o.viewport.height) - Math.max(top, 0));
  return (w * h) / (b.width * b.height) >= IN_VIEWPORT_RATIO;
}

/** WebArena's clean_accesibility_tree: drop StaticText already said in one of the 3 lines above. */
export function cleanTree(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.toLowerCase().includes('statictext')) {
      const m = /\[\d+\] StaticText (.+)/s.exec(line);
      if (m) {
        const said = (m[1] as string).slice(1, -1);
        if (said && out.slice(-3).every((prev) => !prev.includes(said))) out.push(line);
      }
    } else out.push(line);
  }
  return out.join('\n');
}

/** A tab's element ids: kept for the life of one document (its root node), renewed with the next. */
export interface IdMemo {
  root: string | undefined;
  ids: Map<string, number>;
  next: number;
}

export function newIdMemo(): IdMemo {
  return { root: undefined, ids: new Map(), next: 1 };
}

export function renderTree(
  raw: AXNode[],
  bounds: Map<number, Bound> | undefined,
  o: TreeOptions,
  memo: IdMemo = newIdMemo(),
): RenderedTree {
  const nodes: AXNode[] = [];
  const byId = new Map<string, AXNode>();
  for (const n of raw)
    if (!byId.has(n.nodeId)) {
      byId.set(n.nodeId, n);
      nodes.push(n);
    }
  const targets = new Map<number, number>();
  const valid = new Set<number>();
  const lines = new Map<number, string>();
  const out: string[] = [];
  const root = nodes[0];
  if (!root) return { text: '', targets, valid, lines };
  const rootKey = `${root.nodeId}:${root.backendDOMNodeId ?? ''}`;
  if (memo.root !== rootKey) {
    memo.root = rootKey;
    memo.ids = new Map();
    memo.next = 1;
  }
  const seen = new Set<string>();
  const walk = (node: AXNode, depth: number) => {
    if (seen.has(node.nodeId)) return;
    seen.add(node.nodeId);
    let id = memo.ids.get(node.nodeId);
    if (id === undefined) {
      id = memo.next++;
      memo.ids.set(node.nodeId, id);
    }
    if (node.backendDOMNodeId !== undefined) targets.set(id, node.backendDOMNodeId);
    const line = lineOf(node, id);
    if (line !== undefined) {
      valid.add(id);
      lines.set(id, line);
    }
    const isRoot = node === root;
    const shown =
      line !== undefined &&
      (!o.viewportOnly ||
        isRoot ||
        inViewport(
          node.backendDOMNodeId !== undefined ? bounds?.get(node.backendDOMNodeId) : undefined,
          o,
        ));
    if (shown) out.push(`${'\t'.repeat(depth)}${line}`);
    for (const child of node.childIds ?? []) {
      const c = byId.get(child);
      if (c) walk(c, shown ? depth + 1 : depth);
    }
  };
  walk(root, 0);
  return { text: cleanTree(out.join('\n')), targets, valid, lines };
}

/** Layout bounds by backend node id from a DOMSnapshot.captureSnapshot reply (main document). */
export function boundsFromSnapshot(snapshot: Json): {
  bounds: Map<number, Bound>;
  scroll: { x: number; y: number };
} {
  const bounds = new Map<number, Bound>();
  const s = snapshot as {
    documents?: {
      nodes?: { backendNodeId?: number[] };
      layout?: { nodeIndex?: number[]; bounds?: number[][] };
      scrollOffsetX?: number;
      scrollOffsetY?: number;
    }[];
  };
  const doc = s.documents?.[0];
  const backend = doc?.nodes?.backendNodeId ?? [];
  const index = doc?.layout?.nodeIndex ?? [];
  const rects = doc?.layout?.bounds ?? [];
  index.forEach((nodeIdx, i) => {
    const b = rects[i];
    const id = backend[nodeIdx];
    if (b && id !== undefined && !bounds.has(id))
      bounds.set(id, { x: b[0] ?? 0, y: b[1] ?? 0, width: b[2] ?? 0, height: b[3] ?? 0 });
  });
  return { bounds, scroll: { x: doc?.scrollOffsetX ?? 0, y: doc?.scrollOffsetY ?? 0 } };
}

/** WebArena truncates the observation to `max_obs_length` tokens; we count word pieces (ours). */
export function truncateTokens(
  text: string,
  max: number,
): { text: string; tokens: number; cut: boolean } {
  const re = /\w+|[^\w\s]/g;
  let count = 0;
  let end = text.length;
  let cut = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    count += 1;
    if (max > 0 && count === max + 1 && !cut) {
      end = m.index;
      cut = true;
    }
  }
  return { text: cut ? text.slice(0, end).trimEnd() : text, tokens: count, cut };
}
