import { describe, expect, it } from 'vitest';
import {
  decisionHistory,
  decisionRights,
  diffRangeWith,
  needsReason,
  parseDiffRange,
  reviewPair,
  versionAt,
} from './model.ts';

const versions = [
  {
    version: 1,
    name: 'first',
    gate: { history: [{ id: 'a1', at: '2024-01-01T00:00:00Z', decision: 'reject' }] },
  },
  {
    version: 2,
    name: 'second',
    gate: {
      history: [
        { id: 'a2', at: '2024-03-01T00:00:00Z', decision: 'approve' },
        { id: 'a3', at: '2024-02-01T00:00:00Z', decision: 'reject' },
      ],
    },
  },
];

describe('versions', () => {
  it('shows the requested version, else the newest', () => {
    expect(versionAt(versions, '1')?.name).toBe('first');
    expect(versionAt(versions, undefined)?.name).toBe('second');
    expect(versionAt(versions, '9')?.name).toBe('second');
    expect(versionAt([], '1')).toBeUndefined();
  });

  it('reads and writes the diff range, filling the other end with the oldest or newest', () => {
    expect(parseDiffRange('1..2')).toEqual(['1', '2']);
    expect(parseDiffRange(undefined)).toEqual(['', '']);
    expect(diffRangeWith('from', '1', ['', ''], versions)).toBe('1..2');
    expect(diffRangeWith('to', '2', ['', ''], versions)).toBe('1..2');
    expect(diffRangeWith('to', '1', ['2', '2'], versions)).toBe('2..1');
  });

  it('lists decisions across versions newest first', () => {
    const history = decisionHistory(versions);
    expect(history.map((d) => [d.id, d.version, d.versionName])).toEqual([
      ['a2', 2, 'second'],
      ['a3', 2, 'second'],
      ['a1', 1, 'first'],
    ]);
  });
});

describe('review pair', () => {
  const run = (id: string, o: Partial<Parameters<typeof reviewPair>[0][number]>) => ({
    id,
    status: 'completed',
    policy: 'scripted:a',
    harnessed: false,
    harnessVersionId: null,
    ...o,
  });
  const runs = [
    run('c-running', { harnessed: true, harnessVersionId: 'v2', status: 'running' }),
    run('c-done', { harnessed: true, harnessVersionId: 'v2', policy: 'scripted:b' }),
    run('other-version', { harnessed: true, harnessVersionId: 'v1' }),
    run('b-a', {}),
    run('b-b', { policy: 'scripted:b' }),
  ];

  it('picks a completed candidate of the version and a baseline of the same policy', () => {
    const pair = reviewPair(runs, 'v2', {});
    expect(pair.candidates.map((r) => r.id)).toEqual(['c-running', 'c-done']);
    expect(pair.baselines.map((r) => r.id)).toEqual(['b-a', 'b-b']);
    expect(pair.candidateId).toBe('c-done');
    expect(pair.baselineId).toBe('b-b');
  });

  it('keeps what the URL asks for', () => {
    const pair = reviewPair(runs, 'v2', { candidate: 'c-running', baseline: 'b-b' });
    expect(pair.candidateId).toBe('c-running');
    expect(pair.baselineId).toBe('b-b');
  });

  it('falls back to the first baseline when none has the candidate policy', () => {
    expect(reviewPair(runs, 'v1', {}).baselineId).toBe('b-a');
    expect(reviewPair(runs, 'v9', {})).toMatchObject({ candidateId: undefined, baselineId: 'b-a' });
  });
});

describe('who may decide, and when a reason is needed', () => {
  it('the local user and researchers may; a viewer, an outsider and a share link may not', () => {
    expect(decisionRights({ mode: 'local', role: 'admin' })).toEqual({ allowed: true, why: null });
    expect(decisionRights({ mode: 'team', role: 'researcher', share: null }).allowed).toBe(true);
    expect(decisionRights({ mode: 'team', role: 'viewer', share: null })).toEqual({
      allowed: false,
      why: 'Deciding needs the researcher role; you are a viewer in this project.',
    });
    expect(decisionRights({ mode: 'team', role: null, share: null }).why).toMatch(/not a member/);
    expect(decisionRights({ mode: 'team', role: null, share: { kind: 'run' } }).why).toMatch(
      /read-only/,
    );
    // Until auth.me answers, the buttons wait (disabled, no sentence yet).
    expect(decisionRights(undefined)).toEqual({ allowed: false, why: null });
  });

  it('rejecting and reversing always need a reason; approving only with concerns', () => {
    expect(needsReason('reject', [])).toBe(true);
    expect(needsReason('reverse', [])).toBe(true);
    expect(needsReason('approve', [])).toBe(false);
    expect(needsReason('approve', [{ code: 'no_validation_run' }])).toBe(true);
  });
});
