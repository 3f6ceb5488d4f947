import { describe, expect, it } from 'vitest';
import { inShareScope } from './scope.ts';

describe('inShareScope', () => {
  it('lets members go anywhere', () => {
    expect(inShareScope(null, '/runs')).toBe(true);
  });
  it('keeps a run link to the run and its episodes', () => {
    const s = { kind: 'run' as const, ids: ['r1'], path: '/runs/r1' };
    expect(inShareScope(s, '/runs/r1')).toBe(true);
    expect(inShareScope(s, '/runs/r1/episodes/e1?step=2')).toBe(true);
    expect(inShareScope(s, '/runs')).toBe(false);
    expect(inShareScope(s, '/runs/r2')).toBe(false);
    expect(inShareScope(s, '/tasks/household/x')).toBe(false);
  });
  it('keeps a trajectory link to its episode only', () => {
    const s = { kind: 'trajectory' as const, ids: ['e1'], path: '/runs/r1/episodes/e1' };
    expect(inShareScope(s, '/runs/r1/episodes/e1?step=3')).toBe(true);
    expect(inShareScope(s, '/runs/r1')).toBe(false);
    expect(inShareScope(s, '/runs/r1/episodes/e2')).toBe(false);
  });
  it('keeps a comparison to its pair and the two runs', () => {
    const s = { kind: 'comparison' as const, ids: ['a', 'b'], path: '/compare?runs=a..b' };
    expect(inShareScope(s, '/compare?runs=a..b')).toBe(true);
    expect(inShareScope(s, '/compare?runs=a..c')).toBe(false);
    expect(inShareScope(s, '/runs/b')).toBe(true);
  });
  it('keeps a rig to its page, candidates and runs; a version to its page', () => {
    const rig = { kind: 'rig' as const, ids: ['g'], path: '/rigs/g' };
    expect(inShareScope(rig, '/rigs/g/candidates/c')).toBe(true);
    expect(inShareScope(rig, '/rigs')).toBe(false);
    const v = { kind: 'harnessVersion' as const, ids: ['v'], path: '/harnesses/versions/v' };
    expect(inShareScope(v, '/harnesses/versions/v')).toBe(true);
    expect(inShareScope(v, '/harnesses/h')).toBe(false);
  });
});
