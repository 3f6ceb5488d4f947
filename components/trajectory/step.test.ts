import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../contracts/steps.ts';
import { actionRewritten, keyedWordDiff, layersFor, observationChanged } from './step.ts';

const act = (command: string) => ({ name: 'act', args: { command } });

function step(o: Partial<StepRecord>): StepRecord {
  return {
    index: 3,
    action: act('go to drawer 1'),
    executedAction: act('go to drawer 1'),
    rawObservation: { text: 'You arrive at drawer 1.' },
    observation: { text: 'You arrive at drawer 1.' },
    reward: 0,
    terminated: false,
    truncated: false,
    info: {},
    invalid: false,
    changes: [],
    ...o,
  } as StepRecord;
}

describe('a step read closely', () => {
  it('calls an action rewritten only when it reached the env in another form', () => {
    expect(actionRewritten(step({}))).toBe(false);
    expect(actionRewritten(step({ executedAction: act('go to drawer 2') }))).toBe(true);
    expect(actionRewritten(step({ executedAction: null, blocked: 'no' }))).toBe(false);
  });

  it('calls the observation changed when the agent saw other text', () => {
    expect(observationChanged(step({}))).toBe(false);
    expect(observationChanged(step({ observation: { text: 'You arrive.' } }))).toBe(true);
    expect(observationChanged(step({ rawObservation: null }))).toBe(false);
  });

  it('names each layer that changed the given parts once', () => {
    const s = step({
      changes: [
        { layer: 'env', component: 'contract', what: 'observation' },
        { layer: 'env', component: 'contract', what: 'banner' },
        { layer: 'env.env', component: 'stage', what: 'action' },
      ],
    });
    expect(layersFor(s, ['observation', 'banner'])).toEqual(['contract at env']);
    expect(layersFor(s, ['action'])).toEqual(['stage at env.env']);
    expect(layersFor(s, ['blocked'])).toEqual([]);
  });

  it('keys diff parts by offset so equal words get distinct keys', () => {
    const parts = keyedWordDiff('a b a', 'a c a');
    expect(new Set(parts.map((p) => p.key)).size).toBe(parts.length);
    expect(
      parts
        .filter((p) => p.op !== 'add')
        .map((p) => p.text)
        .join(''),
    ).toBe('a b a');
    expect(
      parts
        .filter((p) => p.op !== 'del')
        .map((p) => p.text)
        .join(''),
    ).toBe('a c a');
  });
});
