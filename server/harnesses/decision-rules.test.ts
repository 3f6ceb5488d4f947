import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../contracts/decisions.ts';
import {
  approvalConcerns,
  DecisionConflictError,
  type RunEvidence,
  reasonProblem,
  transition,
} from './decision-rules.ts';

const decided = (decision: 'approve' | 'reject', reason = ''): DecisionRecord => ({
  id: 'a1',
  decision,
  reason,
  by: 'ada',
  at: '2026-12-01T10:20:30.000Z',
  reversesId: null,
  concerns: [],
});

const run = (o: Partial<RunEvidence> = {}): RunEvidence => ({
  id: 'run-0000abcdefgh',
  status: 'completed',
  episodesTotal: 4,
  successes: 2,
  failures: 2,
  errors: 0,
  ...o,
});

describe('the decision state machine', () => {
  it('records a first decision only while pending', () => {
    expect(transition(null, { kind: 'decide', decision: 'approve' }, 'candidate c')).toBe(
      'approve',
    );
    expect(transition(null, { kind: 'decide', decision: 'reject' }, 'candidate c')).toBe('reject');
  });

  it('refuses a second decision in one line naming who decided, when and why', () => {
    const act = () =>
      transition(decided('reject', 'too easy'), { kind: 'decide', decision: 'approve' }, 'c1');
    expect(act).toThrow(DecisionConflictError);
    expect(act).toThrow(
      'c1 is already rejected (by ada, 2026-12-01 10:20: "too easy"); a decision is final, reverse it with a reason to change it',
    );
    // The same verdict twice is refused too: a decision is not re-recorded.
    expect(() =>
      transition(decided('approve'), { kind: 'decide', decision: 'approve' }, 'c1'),
    ).toThrow(/already approved/);
  });

  it('a reversal flips the decision in force and needs one', () => {
    expect(transition(decided('approve'), { kind: 'reverse' }, 'v1')).toBe('reject');
    expect(transition(decided('reject'), { kind: 'reverse' }, 'v1')).toBe('approve');
    expect(() => transition(null, { kind: 'reverse' }, 'v1')).toThrow(
      'v1 has no decision to reverse',
    );
  });
});

describe('when a decision needs a reason', () => {
  const concern = { code: 'validation_errors' as const, message: '4 of 4 episodes errored' };
  it('rejecting and reversing always do; approving only with concerns', () => {
    const base = { reversing: false, reason: '  ', concerns: [] };
    expect(reasonProblem({ ...base, decision: 'reject' })).toMatch(/rejecting needs a reason/);
    expect(reasonProblem({ ...base, decision: 'approve', reversing: true })).toMatch(
      /reversing a decision needs a reason/,
    );
    expect(reasonProblem({ ...base, decision: 'approve' })).toBeNull();
    expect(reasonProblem({ ...base, decision: 'approve', concerns: [concern] })).toBe(
      'approving needs a reason: 4 of 4 episodes errored',
    );
    expect(
      reasonProblem({ ...base, decision: 'approve', concerns: [concern], reason: 'known flake' }),
    ).toBeNull();
  });
});

describe('the approval concerns, computed from the validation run', () => {
  it('no run at all', () => {
    expect(approvalConcerns(null, null)).toEqual([
      { code: 'no_validation_run', message: 'it has no validation run' },
    ]);
  });

  it('a clean run inside the band (edges included) raises none', () => {
    expect(approvalConcerns(run(), [0.4, 0.6])).toEqual([]);
    expect(approvalConcerns(run({ successes: 2, failures: 3 }), [0.4, 0.6])).toEqual([]);
    // Without a band (a harness made in the editor) only the run itself counts.
    expect(approvalConcerns(run({ successes: 4, failures: 0 }), null)).toEqual([]);
  });

  it('4 of 4 harness errors: errors, and nothing scored against the band', () => {
    const c = approvalConcerns(run({ successes: 0, failures: 0, errors: 4 }), [0.4, 0.6]);
    expect(c.map((x) => x.code)).toEqual(['validation_errors', 'outside_band']);
    expect(c[0]?.message).toBe('4 of 4 episodes of its validation run abcdefgh ended in errors');
    expect(c[1]?.message).toMatch(/no scored episode to hold against the band 40%–60%/);
    // The same run on a harness without a band still needs a reason.
    expect(approvalConcerns(run({ successes: 0, failures: 0, errors: 4 }), null)).toHaveLength(1);
  });

  it('outside the band, either side', () => {
    expect(approvalConcerns(run({ successes: 4, failures: 0 }), [0.4, 0.6])[0]?.message).toBe(
      'its success rate 100% (4/4) is outside the band 40%–60%',
    );
    expect(approvalConcerns(run({ successes: 0, failures: 4 }), [0.4, 0.6])[0]?.code).toBe(
      'outside_band',
    );
  });

  it('a run still going, or cancelled', () => {
    const going = approvalConcerns(run({ status: 'running', successes: 1, failures: 1 }), null);
    expect(going[0]?.message).toBe(
      'its validation run abcdefgh has not finished (2 of 4 episodes)',
    );
    const cancelled = approvalConcerns(run({ status: 'cancelled' }), null);
    expect(cancelled[0]?.message).toMatch(/was cancelled/);
  });
});
