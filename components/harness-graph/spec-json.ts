// A HarnessSpec typed or pasted as JSON, read into a graph — or the reason it cannot be, worded for
// the person fixing it (where in the spec, and what is wrong).
import { HarnessSpecSchema } from '../../contracts/spec.ts';
import { type Graph, specToGraph } from './model.ts';

export type ImportResult = { ok: true; graph: Graph } | { ok: false; error: string };

export function importSpecJson(text: string): ImportResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  const parsed = HarnessSpecSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: `invalid harness spec at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
    };
  }
  return { ok: true, graph: specToGraph(parsed.data) };
}
