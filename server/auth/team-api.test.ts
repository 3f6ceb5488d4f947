// Team mode through the real app router and a real (embedded) database: strings are refused at
// the boundary before anything runs (issue 16 item 6), share links are stored and revocable
// (item 8), projects can be created (auth.createProject), and an invite survives a wrong password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, BASE_SPEC, call, PROCEDURES, type Team, teamFixture } from './team.fixture.ts';
import { hashInviteToken } from './tokens.ts';

let team: Team;
let researcherA: unknown;
let adminB: unknown;

beforeAll(async () => {
  team = await teamFixture();
  researcherA = await team.callerFor({ session: team.tokens.researcherA });
  adminB = await team.callerFor({ session: team.tokens.adminB });
}, 120_000);

afterAll(async () => {
  await team?.close();
});

describe('strings are clean text at the boundary (item 6)', () => {
  it('harnesses.decide with a lone surrogate in the reason is a 400, and nothing is written', async () => {
    const approvals = await team.handle.db.approval.count();
    const audits = await team.handle.db.auditLog.count({ where: { action: 'harnesses.decide' } });
    const answer = await answerOf(
      call(researcherA, 'harnesses.decide', {
        harnessVersionId: team.inA.harnessVersion,
        decision: 'approve',
        reason: 'x\ud800',
      }),
    );
    expect(answer).toEqual({
      code: 'BAD_REQUEST',
      message:
        'invalid input: reason has a lone surrogate (U+D800) at character 2: text must be well-formed Unicode',
    });
    expect(await team.handle.db.approval.count()).toBe(approvals);
    expect(await team.handle.db.auditLog.count({ where: { action: 'harnesses.decide' } })).toBe(
      audits,
    );
    const status = await team.handle.db.harness.findUniqueOrThrow({
      where: { id: team.inA.harness },
      select: { status: true },
    });
    expect(status.status).not.toBe('approved');
  });

  it('harness names with NUL, control characters or lone surrogates are refused; emoji and tabs pass', async () => {
    const before = await team.handle.db.harness.count();
    for (const [name, problem] of [
      ['bad\u0000name', 'name has NUL at character 4'],
      ['bell\u0007', 'name has the control character U+0007 at character 5'],
      ['csi\u009b31m', 'name has the control character U+009B at character 4'],
      ['\udc00tail', 'name has a lone surrogate (U+DC00) at character 1'],
    ] as const) {
      const answer = await answerOf(
        call(researcherA, 'harnesses.create', { name, spec: BASE_SPEC }),
      );
      expect(answer.code, name).toBe('BAD_REQUEST');
      expect(answer.message, name).toContain(problem);
    }
    // Deep in a spec too, with the path to the string.
    const nested = await answerOf(
      call(researcherA, 'harnesses.create', {
        name: 'ok',
        spec: { version: 1, env: { type: 'contract', code: 'x\u0000', env: BASE_SPEC.env } },
      }),
    );
    expect(nested.message).toContain('spec.env.code has NUL at character 2');
    expect(await team.handle.db.harness.count()).toBe(before);
    const ok = await answerOf(
      call(researcherA, 'harnesses.create', {
        name: 'rocket 🚀 harness',
        spec: {
          version: 1,
          env: {
            type: 'contract',
            code: '// tab\there\r\nexport function filterObservation(o) {\treturn o;\r\n}\n',
            env: BASE_SPEC.env,
          },
        },
      }),
    );
    expect(ok, 'a clean name and code are accepted').toEqual({ code: 'OK', message: '' });
  });

  it('every procedure refuses such a string (value or key) before anything runs, even anonymously', async () => {
    const anonymous = await team.callerFor({});
    for (const [path] of PROCEDURES) {
      const value = await answerOf(call(anonymous, path, { note: 'a\u0000b' }));
      expect(value, path).toEqual({
        code: 'BAD_REQUEST',
        message:
          'invalid input: note has NUL at character 2: only tab and line breaks are allowed among control characters',
      });
      const key = await answerOf(call(researcherA, path, { options: { 'k\ud83d': 1 } }));
      expect(key.code, path).toBe('BAD_REQUEST');
      expect(key.message, path).toContain('options.k\\uD83D (a key) has a lone surrogate (U+D83D)');
    }
  }, 60_000);
});

describe('share links are stored and revocable (item 8)', () => {
  it('create, list and revoke: a revoked link opens nothing at once', async () => {
    const made = (await call(researcherA, 'auth.createShare', {
      kind: 'run',
      ids: [team.inA.run],
    })) as { id: string; token: string; path: string };
    const guest = await team.callerFor({ share: made.token });
    expect((await answerOf(call(guest, 'runs.byId', { id: team.inA.run }))).code).toBe('OK');

    const listed = (await call(researcherA, 'auth.shares', undefined)) as {
      id: string;
      active: boolean;
      path: string | null;
      createdBy: string;
      kind: string;
      ids: string[];
    }[];
    const row = listed.find((l) => l.id === made.id);
    expect(row).toMatchObject({ active: true, path: made.path, kind: 'run', ids: [team.inA.run] });
    // Project B's admin sees none of project A's links, and cannot revoke them (not found).
    const inB = (await call(adminB, 'auth.shares', undefined)) as { id: string }[];
    expect(inB.map((l) => l.id)).not.toContain(made.id);
    const foreign = await answerOf(call(adminB, 'auth.revokeShare', { id: made.id }));
    expect(foreign).toEqual({ code: 'NOT_FOUND', message: `shareLink '${made.id}' not found` });

    const revoked = (await call(researcherA, 'auth.revokeShare', { id: made.id })) as {
      active: boolean;
      revokedAt: Date | null;
      path: string | null;
    };
    expect(revoked.active).toBe(false);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(revoked.path).toBeNull();
    // The same token, with the visitor's cookie still set: anonymous now.
    const after = await team.callerFor({ share: made.token });
    expect((await answerOf(call(after, 'runs.byId', { id: team.inA.run }))).code).toBe(
      'UNAUTHORIZED',
    );
    const audit = await team.handle.db.auditLog.findFirst({
      where: { action: 'auth.revokeShare', target: made.id },
    });
    expect(audit?.projectId).toBe(team.projectA);
  });

  it('stores scope, expiry and who made it; the token carries only a reference', async () => {
    const made = (await call(researcherA, 'auth.createShare', {
      kind: 'trajectory',
      ids: [team.inA.episode],
      ttlHours: 2,
    })) as { id: string; token: string };
    const row = await team.handle.db.shareLink.findUniqueOrThrow({ where: { id: made.id } });
    expect(row).toMatchObject({
      kind: 'trajectory',
      ids: [team.inA.episode],
      projectId: team.projectA,
    });
    expect(row.createdBy).not.toBe('');
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
    const payload = JSON.parse(Buffer.from(made.token.split('.')[0]!, 'base64url').toString());
    expect(Object.keys(payload).sort()).toEqual(['exp', 'lid', 'typ']);
  });
});

describe('projects and invites', () => {
  it('auth.createProject: an instance admin makes a project and administers it; a project admin may not', async () => {
    const admin = await team.callerFor({
      session: (await team.accounts.signIn('admin@x.test', 'admin-pass-1')).token,
      project: team.projectA,
    });
    const made = (await call(admin, 'auth.createProject', { name: 'Gamma lab' })) as {
      id: string;
      slug: string;
    };
    expect(made.slug).toBe('gamma-lab');
    const admins = await team.handle.db.membership.findMany({ where: { projectId: made.id } });
    expect(admins.map((m) => m.role)).toEqual(['admin']);
    const again = await answerOf(call(admin, 'auth.createProject', { name: 'Gamma lab' }));
    expect(again).toEqual({ code: 'CONFLICT', message: "a project with slug 'gamma-lab' exists" });
    expect((await answerOf(call(adminB, 'auth.createProject', { name: 'Delta' }))).code).toBe(
      'FORBIDDEN',
    );
    expect((await answerOf(call(researcherA, 'auth.createProject', { name: 'Eps' }))).code).toBe(
      'FORBIDDEN',
    );
  });

  it('an invite used with an existing email and a wrong password stays usable', async () => {
    const { token } = await team.accounts.createInvite({
      projectId: team.projectB,
      role: 'viewer',
      by: 'admin',
    });
    await expect(
      team.accounts.acceptInvite({ token, email: 'ra@x.test', password: 'wrong-password' }),
    ).rejects.toThrow('wrong email or password');
    const invite = await team.handle.db.invite.findUniqueOrThrow({
      where: { tokenHash: hashInviteToken(token) },
    });
    expect(invite.usedAt).toBeNull();
    const joined = await team.accounts.acceptInvite({
      token,
      email: 'ra@x.test',
      password: 'researcher-a-pass',
    });
    expect(joined.projectId).toBe(team.projectB);
    await expect(
      team.accounts.acceptInvite({ token, email: 'ra@x.test', password: 'researcher-a-pass' }),
    ).rejects.toThrow(/invalid, used or expired/);
    // A new account whose password is too short does not consume the invite either.
    const second = await team.accounts.createInvite({
      projectId: team.projectB,
      role: 'viewer',
      by: 'admin',
    });
    await expect(
      team.accounts.acceptInvite({ token: second.token, email: 'short@x.test', password: 'short' }),
    ).rejects.toThrow(/at least 8/);
    const ok = await team.accounts.acceptInvite({
      token: second.token,
      email: 'short@x.test',
      password: 'long-enough-1',
    });
    expect(ok.projectId).toBe(team.projectB);
  });
});
