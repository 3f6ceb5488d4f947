// Team mode through createCaller on the real app router and a real (embedded) database: every
// procedure (enumerated from appRouter._def.procedures) refuses an anonymous caller and a caller
// from another project; roles, project boundaries on resources, share links and the audit trail.
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../api/root.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { SkillBankState } from '../skills/bank.ts';
import { saveBank } from '../skills/store.ts';
import { callerFor as callerAs, testServices } from '../testing/services.ts';
import { resolveCaller } from './caller.ts';
import type { Accounts } from './service.ts';

let handle: TestDb;
let services: Services;
let accounts: Accounts;
const ids = {
  projectA: '',
  projectB: '',
  researcherA: '',
  viewerA: '',
  researcherB: '',
  runA: '',
  runB: '',
  episodeA: '',
};
const tokens: Record<string, string> = {};

async function makeRun(projectId: string): Promise<{ runId: string; episodeId: string }> {
  const run = await handle.db.run.create({
    data: {
      policy: 'scripted:toy24-exact',
      spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: 'any' } },
      taskIds: ['t1'],
      k: 1,
      seeds: [0],
      maxSteps: 5,
      rewardParams: {},
      status: 'completed',
      projectId,
    },
  });
  const episode = await handle.db.episode.create({
    data: { runId: run.id, taskId: 't1', seed: 0, ordinal: 0, status: 'done', outcome: 'success' },
  });
  return { runId: run.id, episodeId: episode.id };
}

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle, {
    config: { AUTH_SECRET: 'test-secret-for-team-mode-0123456789abcdef' },
  });
  accounts = services.accounts;
  const admin = await accounts.createUser({
    email: 'admin@x.test',
    password: 'admin-pass-1',
    role: 'admin',
  });
  ids.projectA = (await accounts.createProject({ name: 'Alpha', by: admin.id })).id;
  ids.projectB = (await accounts.createProject({ name: 'Beta', by: admin.id })).id;
  for (const [key, email, project, role] of [
    ['researcherA', 'ra@x.test', ids.projectA, 'researcher'],
    ['viewerA', 'va@x.test', ids.projectA, 'viewer'],
    ['researcherB', 'rb@x.test', ids.projectB, 'researcher'],
  ] as const) {
    ids[key] = (await accounts.createUser({ email, password: `${key}-password` })).id;
    await accounts.addMember({ userId: ids[key], projectId: project, role, by: admin.id });
    tokens[key] = (await accounts.signIn(email, `${key}-password`)).token;
  }
  const a = await makeRun(ids.projectA);
  ids.runA = a.runId;
  ids.episodeA = a.episodeId;
  ids.runB = (await makeRun(ids.projectB)).runId;
}, 60_000);

afterAll(async () => {
  await services.close();
  await handle.close();
});

async function callerFor(o: { session?: string; share?: string; project?: string }) {
  const auth = await resolveCaller(accounts, {
    ...(o.session ? { sessionToken: o.session } : {}),
    ...(o.share ? { shareToken: o.share } : {}),
    ...(o.project ? { project: o.project } : {}),
  });
  return callerAs(services, auth);
}

type Callable = (input?: unknown) => Promise<unknown>;

/** Calls a procedure by its dotted path; a subscription is awaited (authorisation runs first). */
function call(caller: unknown, path: string, input: unknown): Promise<unknown> {
  let node = caller as Record<string, unknown>;
  const parts = path.split('.');
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  const fn = node[parts.at(-1)!] as Callable;
  return Promise.resolve().then(() => fn(input));
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    const value = await p;
    // Subscriptions resolve to an iterator; pull once so its procedure runs.
    if (value && typeof value === 'object' && Symbol.asyncIterator in value) {
      const it = (value as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      await it.next();
      await it.return?.();
    }
    return 'OK';
  } catch (e) {
    return e instanceof TRPCError ? e.code : `not a TRPCError: ${String(e)}`;
  }
}

const procedures = Object.entries(
  (
    appRouter._def as unknown as {
      procedures: Record<string, { _def: { type: string; meta?: { public?: boolean } } }>;
    }
  ).procedures,
);
/** Callable without an account: declared on the procedure itself (publicProcedure). */
const PUBLIC_PATHS = new Set(procedures.filter(([, p]) => p._def.meta?.public).map(([p]) => p));

/** An input naming project A's resources wherever a procedure takes one. */
function inputFor(path: string): unknown {
  return {
    id: path.startsWith('runs.episode') ? ids.episodeA : ids.runA,
    runId: ids.runA,
    episodeId: ids.episodeA,
  };
}

describe('every procedure is authorised', () => {
  it('enumerates the whole router', () => {
    expect(procedures.length).toBeGreaterThan(30);
    expect(procedures.map(([p]) => p)).toEqual(
      expect.arrayContaining(['runs.launch', 'runs.live', 'harnesses.decide', 'auth.audit']),
    );
    // Only "who am I" is declared public.
    expect([...PUBLIC_PATHS]).toEqual(['auth.me']);
  });

  it('refuses an anonymous caller everywhere (only auth.me answers)', async () => {
    const anonymous = await callerFor({});
    const results: Record<string, string> = {};
    for (const [path] of procedures)
      results[path] = await codeOf(call(anonymous, path, inputFor(path)));
    for (const [path, code] of Object.entries(results)) {
      expect(code, path).toBe(PUBLIC_PATHS.has(path) ? 'OK' : 'UNAUTHORIZED');
    }
  }, 60_000);

  it('refuses a caller from another project everywhere', async () => {
    // researcherB asks to act in project A, where they are not a member.
    const outsider = await callerFor({ session: tokens.researcherB, project: ids.projectA });
    for (const [path] of procedures) {
      if (PUBLIC_PATHS.has(path)) continue;
      expect(await codeOf(call(outsider, path, inputFor(path))), path).toBe('FORBIDDEN');
    }
  }, 60_000);

  it("refuses another project's resources even in the caller's own project", async () => {
    const b = await callerFor({ session: tokens.researcherB });
    // Another project's resource answers as an absent one does: the call reveals nothing.
    for (const path of ['runs.byId', 'runs.episodes', 'runs.steps', 'runs.live', 'runs.cancel']) {
      expect(await codeOf(call(b, path, inputFor(path))), path).toBe('NOT_FOUND');
    }
    expect(await codeOf(call(b, 'runs.byId', { id: ids.runB }))).toBe('OK');
    // Lists show the active project only.
    const listed = (await b.runs.list({})).items.map((r) => r.id);
    expect(listed).toContain(ids.runB);
    expect(listed).not.toContain(ids.runA);
  }, 60_000);

  it("lists rigs, skill banks and comparisons of the caller's active project only", async () => {
    const rows: Record<string, { rig: string; bank: string; cmp: string }> = {};
    for (const [key, projectId] of [
      ['A', ids.projectA],
      ['B', ids.projectB],
    ] as const) {
      const rig = await handle.db.rig.create({
        data: {
          bridge: 'toy24',
          taskId: 'toy24:t1',
          policy: 'scripted:toy24-exact',
          designer: 'heuristic',
          k: 1,
          maxIterations: 1,
          constraints: {},
          projectId,
        },
      });
      // New banks get the caller's project through the store, as the comparison service saves them.
      const bank = await saveBank(handle.db, {
        name: `bank ${key}`,
        bridge: 'toy24',
        source: 'manual',
        config: {},
        bank: new SkillBankState(),
        projectId,
      });
      const cmp = await handle.db.comparison.create({
        data: {
          bridge: 'toy24',
          policy: 'scripted:toy24-exact',
          trainSplit: 'train',
          evalSplit: 'eval',
          envs: 1,
          config: {},
          projectId,
        },
      });
      rows[key] = { rig: rig.id, bank, cmp: cmp.id };
    }
    expect(
      (await handle.db.skillBank.findUniqueOrThrow({ where: { id: rows.B!.bank } })).projectId,
    ).toBe(ids.projectB);
    const b = await callerFor({ session: tokens.researcherB });
    const rigs = (await b.rigs.list()).map((r) => r.id);
    const banks = (await b.skills.banks()).map((r) => r.id);
    const cmps = (await b.skills.comparisons()).map((r) => r.id);
    expect(rigs).toContain(rows.B!.rig);
    expect(banks).toContain(rows.B!.bank);
    expect(cmps).toContain(rows.B!.cmp);
    expect(rigs).not.toContain(rows.A!.rig);
    expect(banks).not.toContain(rows.A!.bank);
    expect(cmps).not.toContain(rows.A!.cmp);
    // And the other way round: project A's viewer sees none of project B's rows.
    const viewer = await callerFor({ session: tokens.viewerA });
    expect((await viewer.rigs.list()).map((r) => r.id)).toEqual([rows.A!.rig]);
    expect((await viewer.skills.banks()).map((r) => r.id)).toEqual([rows.A!.bank]);
    expect((await viewer.skills.comparisons()).map((r) => r.id)).toEqual([rows.A!.cmp]);
  }, 60_000);

  it('a member reads their project; a viewer cannot launch or decide, a researcher can pass', async () => {
    const viewer = await callerFor({ session: tokens.viewerA });
    expect(await codeOf(call(viewer, 'runs.byId', { id: ids.runA }))).toBe('OK');
    expect(await codeOf(call(viewer, 'runs.launch', { policy: 'x' }))).toBe('FORBIDDEN');
    expect(await codeOf(call(viewer, 'harnesses.decide', { harnessVersionId: 'v' }))).toBe(
      'FORBIDDEN',
    );
    const researcher = await callerFor({ session: tokens.researcherA });
    // Past authorisation, the input check answers (BAD_REQUEST), not FORBIDDEN.
    expect(await codeOf(call(researcher, 'runs.launch', { policy: 'x' }))).toBe('BAD_REQUEST');
    expect(
      await codeOf(
        call(researcher, 'auth.createInvite', { projectId: ids.projectA, role: 'viewer' }),
      ),
    ).toBe('FORBIDDEN');
  }, 60_000);

  it('a forged or expired session is anonymous', async () => {
    const forged = `${tokens.researcherA!.split('.')[0]}.AAAA`;
    expect(
      await codeOf(call(await callerFor({ session: forged }), 'runs.byId', { id: ids.runA })),
    ).toBe('UNAUTHORIZED');
  });
});

describe('share links', () => {
  it('open one run read-only without an account, and nothing else', async () => {
    const { token } = await accounts.shares.create({
      kind: 'run',
      ids: [ids.runA],
      by: ids.researcherA,
      projectId: ids.projectA,
    });
    const guest = await callerFor({ share: token });
    expect(await codeOf(call(guest, 'runs.byId', { id: ids.runA }))).toBe('OK');
    expect(await codeOf(call(guest, 'runs.episodes', { runId: ids.runA }))).toBe('OK');
    expect(await codeOf(call(guest, 'runs.steps', { episodeId: ids.episodeA }))).toBe('OK');
    expect(await codeOf(call(guest, 'bridges.list', undefined))).toBe('OK');
    expect(await codeOf(call(guest, 'runs.byId', { id: ids.runB }))).toBe('FORBIDDEN');
    expect(await codeOf(call(guest, 'runs.list', {}))).toBe('FORBIDDEN');
    expect(await codeOf(call(guest, 'runs.cancel', { id: ids.runA }))).toBe('FORBIDDEN');
    expect(await codeOf(call(guest, 'runs.launch', { policy: 'x' }))).toBe('FORBIDDEN');
  });

  it('expire, and cannot be forged', async () => {
    const link = (runId: string, ttlHours?: number) =>
      accounts.shares.create({ kind: 'run', ids: [runId], by: 'x', projectId: null, ttlHours });
    const expired = (await link(ids.runA, -1)).token;
    expect(
      await codeOf(call(await callerFor({ share: expired }), 'runs.byId', { id: ids.runA })),
    ).toBe('UNAUTHORIZED');
    const [body] = (await link(ids.runA)).token.split('.');
    const other = (await link(ids.runB)).token.split('.')[1];
    expect(
      await codeOf(
        call(await callerFor({ share: `${body}.${other}` }), 'runs.byId', { id: ids.runA }),
      ),
    ).toBe('UNAUTHORIZED');
  });

  it('a researcher can only share their own project', async () => {
    const a = await callerFor({ session: tokens.researcherA });
    const link = (await a.auth.createShare({ kind: 'run', ids: [ids.runA] })) as { path: string };
    expect(link.path).toMatch(/^\/share\/[\w-]+\.[\w-]+$/);
    // Another project's run is "not found", as a made-up one is.
    expect(await codeOf(a.auth.createShare({ kind: 'run', ids: [ids.runB] }))).toBe('NOT_FOUND');
    expect(await codeOf(a.auth.createShare({ kind: 'run', ids: ['no-such-run'] }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('invites and the audit trail', () => {
  it('an invite link is single-use and grants its role in its project', async () => {
    const { token } = await accounts.createInvite({
      projectId: ids.projectB,
      role: 'viewer',
      by: 'admin',
    });
    const { userId, projectId } = await accounts.acceptInvite({
      token,
      email: 'new@x.test',
      password: 'new-user-pass',
    });
    expect(projectId).toBe(ids.projectB);
    const auth = await resolveCaller(accounts, {
      sessionToken: (await accounts.signIn('new@x.test', 'new-user-pass')).token,
    });
    expect(auth).toMatchObject({ userId, projectId: ids.projectB, role: 'viewer' });
    await expect(
      accounts.acceptInvite({ token, email: 'again@x.test', password: 'again-pass-1' }),
    ).rejects.toThrow(/invalid, used or expired/);
  });

  it('passwords are hashed with scrypt, never stored in clear', async () => {
    const row = await handle.db.user.findUniqueOrThrow({ where: { email: 'ra@x.test' } });
    expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(row.passwordHash).not.toContain('researcherA-password');
    await expect(accounts.signIn('ra@x.test', 'wrong-password')).rejects.toThrow(
      'wrong email or password',
    );
  });

  it('records who did what and when for mutations; the audit query is project-scoped', async () => {
    const a = await callerFor({ session: tokens.researcherA });
    await a.auth.createShare({ kind: 'run', ids: [ids.runA] });
    const page = await a.auth.audit({ limit: 50 });
    const share = page.items.find((r) => r.action === 'auth.createShare');
    expect(share).toMatchObject({ actor: ids.researcherA, projectId: ids.projectA });
    expect(share?.at).toBeInstanceOf(Date);
    expect(page.items.every((r) => r.projectId === ids.projectA)).toBe(true);
  });
});
