// Number and label formatting shared by run views; one place so every screen shows the same digits.
import { invalidLoopRuleText } from '../../contracts/outcomes.ts';

export function pct(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return `${(value * 100).toFixed(digits)}%`;
}

export function interval(iv: [number, number] | null | undefined, digits = 1): string {
  if (!iv) return '—';
  return `[${(iv[0] * 100).toFixed(digits)}, ${(iv[1] * 100).toFixed(digits)}]`;
}

export function num(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return value.toFixed(digits);
}

export function shortId(id: string): string {
  return id.length > 10 ? id.slice(-8) : id;
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const FAILURE_LABEL: Record<string, string> = {
  step_budget_exhausted: 'Step budget exhausted',
  gave_up: 'Gave up',
  wrong_final_state: 'Wrong final state',
  invalid_action_loop: 'Invalid-action loop',
};

export function failureLabel(category: string): string {
  return FAILURE_LABEL[category] ?? category.replaceAll('_', ' ');
}

const FAILURE_HELP: Record<string, string> = {
  step_budget_exhausted: 'The agent used its whole step budget, or the environment cut it off.',
  gave_up: 'The policy stopped on its own before the budget ran out.',
  wrong_final_state: "The episode ended, but the benchmark's verifier says the task is not done.",
};

/** What a failure category means; the loop's rule is worded from its constants (contracts). */
export function failureHelp(category: string, invalidLoopLimit?: number | null): string {
  if (category === 'invalid_action_loop') {
    return invalidLoopRuleText(invalidLoopLimit);
  }
  return FAILURE_HELP[category] ?? '';
}

/** Fixed colours per failure category so charts and legends agree everywhere. */
export const FAILURE_COLOR: Record<string, string> = {
  step_budget_exhausted: 'oklch(0.68 0.14 70)',
  gave_up: 'oklch(0.6 0.12 300)',
  wrong_final_state: 'oklch(0.6 0.18 25)',
  invalid_action_loop: 'oklch(0.6 0.12 250)',
};

export function failureColor(category: string): string {
  return FAILURE_COLOR[category] ?? 'oklch(0.6 0.02 255)';
}

export function outcomeVariant(
  outcome: string | null,
): 'success' | 'danger' | 'warning' | 'outline' {
  if (outcome === 'success') return 'success';
  if (outcome === 'failure') return 'danger';
  if (outcome === 'error') return 'warning';
  return 'outline';
}
