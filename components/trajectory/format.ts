import type { Json } from '../../contracts/json.ts';
import type { Action } from '../../contracts/spec.ts';
import type { LayerChange } from '../../contracts/steps.ts';

/** One line for an action: a text tool shows its text, other tools a compact call. */
export function actionText(action: Action | null | undefined): string {
  if (!action) return '—';
  const values = Object.values(action.args);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  const args = Object.entries(action.args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return `${action.name}(${args})`;
}

export function sameJson(
  a: Json | Action | null | undefined,
  b: Json | Action | null | undefined,
): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** What a layer did to a step, as a phrase after the layer's name ("blocked the action"). */
export const LAYER_CHANGE_TEXT: Record<LayerChange['what'], string> = {
  action: 'changed the action',
  blocked: 'blocked the action',
  transition: 'changed the transition (reward or end of episode)',
  observation: 'changed the observation',
  switch: 'switched to another leg',
  banner: 'added a context banner for the next leg',
};
