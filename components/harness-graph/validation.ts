// The server's validation of the graph's spec (harnesses.validate) as the editor shows it, pure:
// which graph node each problem belongs to (problems name nodes by spec path; nodes made in the
// editor have ids of their own), the editor's overall state, and the text of a problem.
import type { SpecProblem, SpecValidation } from '../../contracts/validation.ts';
import { nodePathOf } from '../../contracts/validation.ts';
import type { Graph, InputHandle, ToSpecResult } from './model.ts';

/** Spec path → graph node id, for the tree that feeds the output (`env`, `env.first`, …). */
export function nodeIdsByPath(graph: Graph): Map<string, string> {
  const out = new Map<string, string>();
  const inputOf = (id: string, handle: InputHandle) =>
    graph.edges.find((e) => e.target === id && e.targetHandle === handle)?.source;
  const visit = (id: string, path: string, seen: Set<string>) => {
    if (seen.has(id)) return; // a cycle: graphToSpec reports it
    seen.add(id);
    out.set(path, id);
    for (const handle of ['env', 'first', 'second', 'remedial'] as const) {
      const inner = inputOf(id, handle);
      if (inner) visit(inner, `${path}.${handle}`, seen);
    }
  };
  const output = graph.nodes.find((n) => n.kind === 'output');
  const top = output ? inputOf(output.id, 'env') : undefined;
  if (top) visit(top, 'env', new Set());
  return out;
}

export interface PlacedProblems {
  /** Problems by graph node id. */
  byNode: Map<string, SpecProblem[]>;
  /** Problems of no node (the spec as a whole). */
  general: SpecProblem[];
}

export function placeProblems(graph: Graph, problems: SpecProblem[]): PlacedProblems {
  const ids = nodeIdsByPath(graph);
  const placed: PlacedProblems = { byNode: new Map(), general: [] };
  for (const p of problems) {
    const path = nodePathOf(p.path);
    const id = path === undefined ? undefined : ids.get(path);
    if (id === undefined) placed.general.push(p);
    else placed.byNode.set(id, [...(placed.byNode.get(id) ?? []), p]);
  }
  return placed;
}

/** "line 2:13 — message", or the message alone. */
export function problemText(p: SpecProblem): string {
  if (!p.line) return p.message;
  return `line ${p.line}${p.column ? `:${p.column}` : ''} — ${p.message}`;
}

/**
 * What the editor knows about the graph: not a spec yet (`draft`), being checked, runs (`valid`),
 * cannot run (`invalid`), or the check itself failed (`error`). Only `valid` may be saved.
 */
export type EditorValidation =
  | { state: 'draft' }
  | { state: 'checking' }
  | { state: 'valid'; result: SpecValidation }
  | { state: 'invalid'; result: SpecValidation }
  | { state: 'error'; message: string };

/** The state, from the graph's spec and the last answer (for which spec it came). */
export function editorValidation(
  spec: ToSpecResult,
  key: string | null,
  answer: { key: string | null; result?: SpecValidation; error?: string } | undefined,
): EditorValidation {
  if (!spec.ok || key === null) return { state: 'draft' };
  if (!answer || answer.key !== key) return { state: 'checking' };
  if (answer.error !== undefined) return { state: 'error', message: answer.error };
  if (!answer.result) return { state: 'checking' };
  return answer.result.valid
    ? { state: 'valid', result: answer.result }
    : { state: 'invalid', result: answer.result };
}

/** Each node's first issue: the graph's own (an unconnected input), else validation's first problem. */
export function nodeIssues(
  graphIssues: Map<string, string>,
  placed: PlacedProblems | undefined,
): Map<string, string> {
  const out = new Map(graphIssues);
  for (const [id, problems] of placed?.byNode ?? []) {
    const first = problems[0];
    if (first && !out.has(id)) out.set(id, problemText(first));
  }
  return out;
}
