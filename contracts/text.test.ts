import { describe, expect, it } from 'vitest';
import { capObservation, capText, MAX_MESSAGE_CHARS, MAX_OBSERVATION_CHARS } from './text.ts';

describe('capText', () => {
  it('leaves short text alone and cuts long text to the cap with its original length', () => {
    expect(capText('short')).toBe('short');
    const long = 'x'.repeat(5_000_000);
    const cut = capText(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(cut).toMatch(/^x+ … \[cut: 5000000 characters in all\]$/);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(MAX_MESSAGE_CHARS);
    const cut = capText(text);
    expect(cut.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    // No high surrogate without its low half.
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false);
  });
});

describe('capObservation', () => {
  it('caps text and drops oversize data, saying so', () => {
    const small = { text: 'You see a box.', data: { n: 1 } };
    expect(capObservation(small)).toBe(small);
    const big = capObservation({ text: 'y'.repeat(1_000_000), data: { s: 'z'.repeat(300_000) } });
    expect(big.data).toBeUndefined();
    expect(big.text.length).toBeLessThan(MAX_OBSERVATION_CHARS + 100);
    expect(big.text).toMatch(
      /\[cut: 1000000 characters in all\]\n\[observation data of \d+ characters dropped\]$/,
    );
  });
});
