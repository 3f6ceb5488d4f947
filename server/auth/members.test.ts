// Team mode from the page (issue 17 §1): members and roles with the last admin protected, invite
// links, the audit with emails, filters and object links, rig share links, the start log's mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modeLine } from './mode.ts';
import { answerOf, call, type Team, teamFixture } from './team.fixture.ts';

let team: Team;
let adminA: unknown;
let researcherA: unknown;
let adminId: string;
let researcherId: string;

beforeAll(async () => {
  team = await teamFixture();
  const { token } = await team.accounts.signIn('admin@x.test', 'admin-pass-1');
  adminId = (await team.handle.db.user.findUniqueOrThrow({ where: { email: 'admin@x.test' } })).id;
  researcherId = (await team.handle.db.user.findUniqueOrThrow({ where: { email: 'ra@x.test' } }))
    .id;
  // The instance admin is made a project admin of A (the only one).
  await team.accounts.addMember({
    userId: adminId,
    projectId: team.projectA,
    role: 'admin',
    by: adminId,
  });
  adminA = await team.callerFor({ session: token, project: team.projectA });
  researcherA = await team.callerFor({ session: team.tokens.researcherA });
}, 120_000);

afterAll(async () => {
  await team?.close();
});

describe('members', () => {
  it('lists members and open invites; an invite gives a single-use path with its expiry', async () => {
    const invite = (await call(adminA, 'auth.createInvite', {
      projectId: team.projectA,
      role: 'viewer',
      email: 'new@x.test',
    })) as { path: string; expiresAt: Date; token: string };
    expect(invite.path).toBe(`/invite/${invite.token}`);
    expect(invite.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const list = (await call(adminA, 'auth.members', undefined)) as {
      members: { email: string; role: string }[];
      invites: { email: string | null; role: string }[];
    };
    expect(list.members.map((m) => [m.email, m.role])).toEqual([
      ['ra@x.test', 'researcher'],
      ['admin@x.test', 'admin'],
    ]);
    expect(list.invites).toEqual([
      expect.objectContaining({ email: 'new@x.test', role: 'viewer' }),
    ]);
    // A researcher may not see or change members.
    expect((await answerOf(call(researcherA, 'auth.members', undefined))).code).toBe('FORBIDDEN');
  });

  it('changes a role, and protects the last admin from demotion and removal', async () => {
    await call(adminA, 'auth.setMemberRole', { userId: researcherId, role: 'viewer' });
    const m = await team.handle.db.membership.findUniqueOrThrow({
      where: { userId_projectId: { userId: researcherId, projectId: team.projectA } },
    });
    expect(m.role).toBe('viewer');
    const demote = await answerOf(
      call(adminA, 'auth.setMemberRole', { userId: adminId, role: 'researcher' }),
    );
    expect(demote).toEqual({
      code: 'CONFLICT',
      message: "admin@x.test is the project's last admin: make someone else admin first",
    });
    expect((await answerOf(call(adminA, 'auth.removeMember', { userId: adminId }))).code).toBe(
      'CONFLICT',
    );
    // With a second admin the first may step down.
    await call(adminA, 'auth.setMemberRole', { userId: researcherId, role: 'admin' });
    await call(adminA, 'auth.setMemberRole', { userId: researcherId, role: 'researcher' });
    // Another project's member is not found here.
    const abId = (await team.handle.db.user.findUniqueOrThrow({ where: { email: 'ab@x.test' } }))
      .id;
    expect((await answerOf(call(adminA, 'auth.removeMember', { userId: abId }))).code).toBe(
      'NOT_FOUND',
    );
  });

  it('removes a member, who then has no role in the project', async () => {
    const u = await team.accounts.createUser({ email: 'gone@x.test', password: 'gone-pass-1' });
    await team.accounts.addMember({
      userId: u.id,
      projectId: team.projectA,
      role: 'viewer',
      by: adminId,
    });
    await call(adminA, 'auth.removeMember', { userId: u.id });
    expect(
      await team.handle.db.membership.count({ where: { userId: u.id, projectId: team.projectA } }),
    ).toBe(0);
  });
});

describe('the audit trail', () => {
  it('names people by email, filters by person, kind and date, and links objects', async () => {
    await call(researcherA, 'auth.createShare', { kind: 'run', ids: [team.inA.run] });
    const all = (await call(adminA, 'auth.audit', { limit: 200 })) as {
      items: {
        actor: string;
        actorEmail: string | null;
        action: string;
        targetHref: string | null;
      }[];
    };
    const share = all.items.find((i) => i.action === 'auth.createShare');
    expect(share?.actorEmail).toBe('ra@x.test');
    const byAdmin = (await call(adminA, 'auth.audit', { actor: adminId })) as typeof all;
    expect(byAdmin.items.length).toBeGreaterThan(0);
    expect(byAdmin.items.every((i) => i.actor === adminId)).toBe(true);
    const members = (await call(adminA, 'auth.audit', { kind: 'membership' })) as typeof all;
    expect(members.items.length).toBeGreaterThan(0);
    expect(members.items.every((i) => i.action.startsWith('membership.'))).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const dated = (await call(adminA, 'auth.audit', { from: today, to: today })) as typeof all;
    expect(dated.items.length).toBe(all.items.length);
    const past = (await call(adminA, 'auth.audit', { to: '2000-01-01' })) as typeof all;
    expect(past.items).toEqual([]);
    // An audited run launch links to the run.
    await team.accounts.audit({
      actor: researcherId,
      action: 'runs.launch',
      target: team.inA.run,
      projectId: team.projectA,
      details: {},
    });
    const runs = (await call(adminA, 'auth.audit', { kind: 'runs' })) as typeof all;
    expect(runs.items[0]?.targetHref).toBe(`/runs/${team.inA.run}`);
    const facets = (await call(adminA, 'auth.auditFacets', undefined)) as {
      people: { email: string | null }[];
      kinds: string[];
    };
    expect(facets.people.map((p) => p.email)).toContain('ra@x.test');
    expect(facets.kinds).toEqual(expect.arrayContaining(['auth', 'membership', 'runs']));
    expect((await answerOf(call(adminA, 'auth.audit', { from: 'yesterday' }))).message).toContain(
      'a day is YYYY-MM-DD',
    );
  });
});

describe('share links of rigs', () => {
  it('open the rig, its candidates and runs, nothing else; revoked, they open nothing', async () => {
    const link = (await call(researcherA, 'auth.createShare', {
      kind: 'rig',
      ids: [team.inA.rig],
    })) as { id: string; token: string; path: string };
    const guest = await team.callerFor({ share: link.token });
    expect((await answerOf(call(guest, 'rigs.byId', { id: team.inA.rig }))).code).toBe('OK');
    expect((await answerOf(call(guest, 'runs.byId', { id: team.inA.run }))).code).toBe('FORBIDDEN');
    const me = (await call(guest, 'auth.me', undefined)) as { share: { path: string } };
    expect(me.share.path).toBe(`/rigs/${team.inA.rig}`);
    await call(researcherA, 'auth.revokeShare', { id: link.id });
    const after = await team.callerFor({ share: link.token });
    expect((await answerOf(call(after, 'rigs.byId', { id: team.inA.rig }))).code).toBe(
      'UNAUTHORIZED',
    );
  });
});

describe('the start log', () => {
  it('names team mode and whether an admin exists', async () => {
    expect(await modeLine(team.accounts)).toContain('an admin exists');
  });
});
