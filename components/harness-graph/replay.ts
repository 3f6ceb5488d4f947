// Testing hooks on a recorded trajectory, as plain functions: the task the spec plays (its first
// environment) and what the replay changed.
import type { HarnessSpec } from '../../contracts/spec.ts';

/** The task of the spec's first environment (down the env inputs and a chain's first leg). */
export function baseTask(spec: HarnessSpec): string {
  let node = spec.env;
  while (node.type !== 'base') node = node.type === 'chain' ? node.first : node.env;
  return node.task;
}

/** The replayed steps some layer changed, and how many steps a layer blocked. */
export function replaySummary<S extends { changes: unknown[]; blocked?: string | undefined }>(
  steps: S[],
): { changed: S[]; blocked: number; total: number } {
  return {
    changed: steps.filter((s) => s.changes.length > 0),
    blocked: steps.filter((s) => s.blocked).length,
    total: steps.length,
  };
}
