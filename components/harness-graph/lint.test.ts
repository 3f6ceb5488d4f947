import { describe, expect, it } from 'vitest';
import type { LintResult } from '../../contracts/lint.ts';
import { editorLint, findingWhere, witnessSource } from './lint.ts';

const result: LintResult = {
  solvable: 'proved',
  witness: {
    source: 'oracle',
    seed: 0,
    actions: [{ name: 'act', args: { command: 'look' } }],
    initial: 'start',
    trajectory: [],
  },
  findings: [],
  attempts: [],
  shortestKnown: 1,
  seed: 0,
  ms: 3,
};

describe('editor lint state', () => {
  it('belongs to the valid spec on screen only', () => {
    expect(editorLint(null, { key: 'a', result })).toEqual({ state: 'idle' });
    expect(editorLint('b', { key: 'a', result })).toEqual({ state: 'checking' });
    expect(editorLint('a', { key: 'a', result })).toEqual({ state: 'done', result });
    expect(editorLint('a', { key: 'a', error: 'boom' })).toEqual({
      state: 'error',
      message: 'boom',
    });
  });

  it('words where a finding is and what proved it', () => {
    expect(findingWhere({ step: 3 })).toBe('step 3');
    expect(findingWhere({ step: null, setupStep: 2 })).toBe('set-up action 2');
    expect(findingWhere({ step: null })).toBe('at reset');
    expect(witnessSource(result)).toBe("the oracle's plan (1 steps, seed 0)");
  });
});
