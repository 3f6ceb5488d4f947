import { describe, expect, it } from 'vitest';
import { checkSummary } from './diagnosis.ts';

describe('the diagnosis check line', () => {
  it('says what was proved, and how much was removed when anything was', () => {
    expect(checkSummary({ evidence: 1, claims: 2, removed: [] })).toBe(
      'Checked against the baseline trajectories: 1 quote found verbatim in the cited steps, 2 negative claims true on every step of the episodes named.',
    );
    const removed = checkSummary({
      evidence: 0,
      claims: 0,
      removed: [{ kind: 'claim', what: 'never typed `open`', reason: 'typed at step 3' }],
    });
    expect(removed).toMatch(
      /0 quotes found .* 0 negative claims .* Removed 1 item that did not hold:$/,
    );
  });
});
