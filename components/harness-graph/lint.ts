// The editor's solvability lint state (pure): which answer belongs to the spec on screen, and how
// findings read. Lint runs once the spec on screen is valid (it replays the harness, so it must run).
import type { LintFinding, LintResult } from '../../contracts/lint.ts';

export type EditorLint =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'error'; message: string }
  | { state: 'done'; result: LintResult };

export function editorLint(
  validKey: string | null,
  answer: { key: string; result?: LintResult; error?: string } | undefined,
): EditorLint {
  if (validKey === null) return { state: 'idle' };
  if (!answer || answer.key !== validKey) return { state: 'checking' };
  if (answer.error !== undefined) return { state: 'error', message: answer.error };
  return answer.result ? { state: 'done', result: answer.result } : { state: 'checking' };
}

/** Where a finding is: the agent step, the Stage set-up action, or the reset. */
export function findingWhere(f: Pick<LintFinding, 'step' | 'setupStep'>): string {
  if (f.step !== null) return `step ${f.step}`;
  if (f.setupStep !== undefined) return `set-up action ${f.setupStep}`;
  return 'at reset';
}

export const RULE_TITLES: Record<LintFinding['rule'], string> = {
  'contract-blocks-verb': 'blocks a needed verb',
  'step-limit': 'step limit too short',
  'stage-destroys-goal': 'set-up loses the goal',
  'chain-unreachable': 'second leg unreachable',
  'hook-hides-goal': 'goal hidden from the agent',
  'witness-broke': 'known win broke',
  'no-witness': 'no known win',
};

export function witnessSource(r: LintResult): string {
  const w = r.witness;
  if (!w) return '';
  return w.source === 'oracle'
    ? `the oracle's plan (${w.actions.length} steps, seed ${w.seed})`
    : `recorded episode ${w.episodeId ?? ''} (${w.actions.length} steps, seed ${w.seed})`;
}
