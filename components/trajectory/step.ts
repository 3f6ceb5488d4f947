// One recorded step read closely, as plain functions: whether a layer rewrote the action or changed
// the observation, and which layers ("component at layer") changed what.
import type { StepRecord } from '../../contracts/steps.ts';
import { sameJson } from './format.ts';
import { type DiffPart, wordDiff } from './text-diff.ts';

type StepLike = Pick<
  StepRecord,
  'action' | 'executedAction' | 'blocked' | 'rawObservation' | 'observation' | 'changes'
>;

/** The agent's action reached the environment in another form (not blocked, but rewritten). */
export function actionRewritten(step: StepLike): boolean {
  return (
    !step.blocked && step.executedAction !== null && !sameJson(step.action, step.executedAction)
  );
}

/** The agent saw something other than what the environment said. */
export function observationChanged(step: StepLike): boolean {
  return step.rawObservation !== null && step.rawObservation.text !== step.observation.text;
}

/** The layers that changed any of `what` (each named once, in the order they acted). */
export function layersFor(step: StepLike, what: string[]): string[] {
  return [
    ...new Set(
      step.changes.filter((c) => what.includes(c.what)).map((c) => `${c.component} at ${c.layer}`),
    ),
  ];
}

/** The word diff with a key per part from its offset in the combined text (stable for a pair). */
export function keyedWordDiff(before: string, after: string): (DiffPart & { key: string })[] {
  let offset = 0;
  return wordDiff(before, after).map((p) => {
    const key = `${p.op}@${offset}`;
    offset += p.text.length;
    return { ...p, key };
  });
}
