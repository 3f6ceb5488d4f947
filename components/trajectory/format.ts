import type { Json } from '../../contracts/json.ts';
import type { Action } from '../../contracts/spec.ts';
import { actionLine } from '../../contracts/steps.ts';

/** One line for an action: a text tool shows its text, other tools a compact call. */
export function actionText(action: Action | null | undefined): string {
  return action ? actionLine(action) : '—';
}

export function sameJson(
  a: Json | Action | null | undefined,
  b: Json | Action | null | undefined,
): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
