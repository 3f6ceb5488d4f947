import { describe, expect, it } from 'vitest';
import { blockedReason } from './access.ts';

const member = (role: 'viewer' | 'researcher' | 'admin' | null) => ({
  mode: 'team' as const,
  role,
  user: { id: 'u1' },
  share: null,
});

describe('what a role may do', () => {
  it('a viewer is told why launching is off, in words, not a procedure name', () => {
    const reason = blockedReason(member('viewer'), 'researcher', 'launch runs');
    expect(reason).toBe(
      'You are a viewer in this project: to launch runs you need the researcher role (an admin can give it).',
    );
    expect(reason).not.toContain('runs.launch');
  });

  it('researchers, admins and the local user may; share links and outsiders may not', () => {
    expect(blockedReason(member('researcher'), 'researcher', 'launch runs')).toBeUndefined();
    expect(blockedReason(member('admin'), 'researcher', 'launch runs')).toBeUndefined();
    expect(
      blockedReason({ mode: 'local', role: 'admin', user: { id: 'local' } }, 'researcher', 'x'),
    ).toBeUndefined();
    expect(blockedReason(undefined, 'researcher', 'x')).toBeUndefined();
    expect(
      blockedReason(
        { ...member(null), user: null, share: { kind: 'run' } },
        'researcher',
        'launch runs',
      ),
    ).toMatch(/read-only share link: sign in to launch runs/);
    expect(blockedReason(member(null), 'researcher', 'launch runs')).toMatch(/not a member/);
  });
});
