import type { Json } from '../../contracts/json.ts';
import type { Action } from '../../contracts/spec.ts';
import { actionLine, type LayerChange } from '../../contracts/steps.ts';

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

/** What a layer did to a step, as a phrase after the layer's name ("blocked the action"). */
export const LAYER_CHANGE_TEXT: Record<LayerChange['what'], string> = {
  action: 'changed the action',
  blocked: 'blocked the action',
  transition: 'changed the transition (reward or end of episode)',
  observation: 'changed the observation',
  switch: 'switched to another leg',
  banner: 'added a context banner for the next leg',
};
