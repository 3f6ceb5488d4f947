import { describe, expect, it } from 'vitest';
import {
  endsInInvalidLoop,
  hasErrors,
  INVALID_LOOP_RULE,
  invalidLoopCutoffText,
  invalidLoopRuleText,
  RUN_OUTCOME_LABEL,
  runOutcome,
} from './outcomes.ts';

describe('runOutcome', () => {
  it('tells a run whose every episode errored from one with some errors and a clean one', () => {
    expect(runOutcome({ done: 4, errors: 4 })).toBe('all_errors');
    expect(runOutcome({ done: 4, errors: 1 })).toBe('partial_errors');
    expect(runOutcome({ done: 4, errors: 0 })).toBe('clean');
    expect(runOutcome({ done: 0, errors: 0 })).toBe('pending');
  });

  it('marks only the error outcomes as errors, each with a label', () => {
    expect(hasErrors('all_errors')).toBe(true);
    expect(hasErrors('partial_errors')).toBe(true);
    expect(hasErrors('clean')).toBe(false);
    expect(hasErrors('pending')).toBe(false);
    expect(RUN_OUTCOME_LABEL.all_errors).toBe('all errors');
  });
});

describe('the invalid-action loop rule', () => {
  const { minInvalid, window } = INVALID_LOOP_RULE;
  const steps = (valid: number, invalid: number) => [
    ...Array<boolean>(valid).fill(false),
    ...Array<boolean>(invalid).fill(true),
  ];

  it('holds when at least minInvalid of the last window steps were invalid', () => {
    expect(endsInInvalidLoop(steps(30, minInvalid))).toBe(true);
    expect(endsInInvalidLoop(steps(30, minInvalid - 1))).toBe(false);
    // Interleaved: every other step of the tail invalid, as a retrying agent does.
    const tail = Array.from({ length: window }, (_, i) => i % 2 === 0);
    expect(endsInInvalidLoop([...steps(30, 0), ...tail])).toBe(
      tail.filter(Boolean).length >= minInvalid,
    );
  });

  it('looks only at the end: invalid steps early in a long episode do not make a loop', () => {
    expect(endsInInvalidLoop([...steps(0, 30), ...steps(window, 0)])).toBe(false);
  });

  it('words the rule from its constants', () => {
    const text = invalidLoopRuleText();
    expect(text).toContain(`${minInvalid} of the last ${window} steps`);
    // No cut-off by default: the benchmark has none, so the rule does not mention one.
    expect(text).not.toContain('in a row');
    expect(invalidLoopRuleText(3)).toContain('3 invalid actions in a row');
    expect(invalidLoopCutoffText(null)).toBeNull();
    expect(invalidLoopCutoffText(10)).toMatch(/^Cut-off on: .*10 invalid actions in a row/);
  });
});
