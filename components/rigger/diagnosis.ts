// What the diagnosis card says about the checker's record, as a plain function.
import type { DiagnosisCheck } from '../../contracts/rigs.ts';

const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** One line: what the checker proved against the trajectories, and how much it removed. */
export function checkSummary(check: DiagnosisCheck): string {
  const proved = `Checked against the baseline trajectories: ${n(check.evidence, 'quote')} found verbatim in the cited steps, ${n(check.claims, 'negative claim')} true on every step of the episodes named.`;
  if (check.removed.length === 0) return proved;
  return `${proved} Removed ${n(check.removed.length, 'item')} that did not hold:`;
}
