// A team-mode world for the auth tests: a real (embedded) database and services with AUTH_SECRET,
// two projects, members with their sessions, and one resource of every kind in project A; plus
// helpers to call any procedure by its dotted path and read the answer's tRPC code and message.
import { TRPCError } from '@trpc/server';
import { appRouter } from '../api/root.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { createHarnessWithVersion } from '../harnesses/library.ts';
import { SkillBankState } from '../skills/bank.ts';
import { saveBank } from '../skills/store.ts';
import { callerFor as callerAs, testServices } from '../testing/services.ts';
import { resolveCaller } from './caller.ts';
import type { ResourceKind } from './resources.ts';
import type { Accounts } from './service.ts';

export const TEAM_SECRET = 'team-fixture-secret-0123456789abcdefghij';
export const BASE_SPEC: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
};

export interface Team {
  handle: TestDb;
  services: Services;
  accounts: Accounts;
  projectA: string;
  projectB: string;
  /** Session tokens: a researcher of A, an admin of B (a project role, not an instance admin). */
  tokens: { researcherA: string; adminB: string };
  /** One resource of every kind, all in project A. */
  inA: Record<ResourceKind, string>;
  /** A skill bank of project B. */
  bankB: string;
  callerFor(o: { session?: string; share?: string; project?: string }): Promise<unknown>;
  close(): Promise<void>;
}

async function makeRun(team: Pick<Team, 'handle'>, projectId: string) {
  const run = await team.handle.db.run.create({
    data: {
      policy: 'scripted:toy24-exact',
      spec: BASE_SPEC,
      taskIds: ['4-7-8-8'],
      k: 1,
      seeds: [0],
      maxSteps: 5,
      rewardParams: {},
      status: 'completed',
      projectId,
    },
  });
  const episode = await team.handle.db.episode.create({
    data: { runId: run.id, taskId: '4-7-8-8', seed: 0, ordinal: 0, status: 'done' },
  });
  return { run: run.id, episode: episode.id };
}

async function resourcesIn(
  handle: TestDb,
  accounts: Accounts,
  projectId: string,
  by: string,
): Promise<Record<ResourceKind, string>> {
  const db = handle.db;
  const { run, episode } = await makeRun({ handle }, projectId);
  const harness = await createHarnessWithVersion(db, {
    name: 'fixture harness',
    spec: BASE_SPEC,
    versionName: 'v1',
    createdBy: by,
    projectId,
  });
  const rig = await db.rig.create({
    data: {
      bridge: 'toy24',
      taskId: 'toy24:4-7-8-8',
      policy: 'scripted:toy24-exact',
      designer: 'heuristic',
      k: 1,
      maxIterations: 1,
      constraints: {},
      projectId,
    },
  });
  const candidate = await db.candidate.create({
    data: { rigId: rig.id, iteration: 0, spec: BASE_SPEC, rationale: 'fixture' },
  });
  const bank = await saveBank(db, {
    name: 'fixture bank',
    bridge: 'toy24',
    source: 'manual',
    config: {},
    bank: new SkillBankState(),
    projectId,
  });
  const comparison = await db.comparison.create({
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
  const share = await accounts.shares.create({ kind: 'run', ids: [run], by, projectId });
  return {
    run,
    episode,
    harness: harness.harnessId,
    harnessVersion: harness.version.id,
    rig: rig.id,
    candidate: candidate.id,
    bank,
    comparison: comparison.id,
    project: projectId,
    shareLink: share.id,
  };
}

export async function teamFixture(): Promise<Team> {
  const handle = await createTestDb('pglite');
  const services = await testServices(handle, { config: { AUTH_SECRET: TEAM_SECRET } });
  const accounts = services.accounts;
  const admin = await accounts.createUser({
    email: 'admin@x.test',
    password: 'admin-pass-1',
    role: 'admin',
  });
  const projectA = (await accounts.createProject({ name: 'Alpha', by: admin.id })).id;
  const projectB = (await accounts.createProject({ name: 'Beta', by: admin.id })).id;
  const ra = await accounts.createUser({ email: 'ra@x.test', password: 'researcher-a-pass' });
  await accounts.addMember({
    userId: ra.id,
    projectId: projectA,
    role: 'researcher',
    by: admin.id,
  });
  const ab = await accounts.createUser({ email: 'ab@x.test', password: 'admin-b-pass' });
  await accounts.addMember({ userId: ab.id, projectId: projectB, role: 'admin', by: admin.id });
  const tokens = {
    researcherA: (await accounts.signIn('ra@x.test', 'researcher-a-pass')).token,
    adminB: (await accounts.signIn('ab@x.test', 'admin-b-pass')).token,
  };
  const inA = await resourcesIn(handle, accounts, projectA, ra.id);
  const bankB = await saveBank(handle.db, {
    name: 'bank of B',
    bridge: 'toy24',
    source: 'manual',
    config: {},
    bank: new SkillBankState(),
    projectId: projectB,
  });
  return {
    handle,
    services,
    accounts,
    projectA,
    projectB,
    tokens,
    inA,
    bankB,
    callerFor: async (o) =>
      callerAs(
        services,
        await resolveCaller(accounts, {
          ...(o.session ? { sessionToken: o.session } : {}),
          ...(o.share ? { shareToken: o.share } : {}),
          ...(o.project ? { project: o.project } : {}),
        }),
      ),
    close: async () => {
      await services.close();
      await handle.close();
    },
  };
}

type Callable = (input?: unknown) => Promise<unknown>;

/** Calls a procedure by its dotted path; a subscription is pulled once (its procedure runs). */
export async function call(caller: unknown, path: string, input: unknown): Promise<unknown> {
  let node = caller as Record<string, unknown>;
  const parts = path.split('.');
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  const fn = node[parts.at(-1)!] as Callable;
  const value = await Promise.resolve().then(() => fn(input));
  if (value && typeof value === 'object' && Symbol.asyncIterator in value) {
    const it = (value as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await it.next();
    await it.return?.();
  }
  return value;
}

/** The answer as a caller sees it: OK, or the tRPC code and message. */
export async function answerOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
    return { code: 'OK', message: '' };
  } catch (e) {
    if (e instanceof TRPCError) return { code: e.code, message: e.message };
    return { code: 'not a TRPCError', message: String(e) };
  }
}

type ProcedureDef = { _def: { type: string; meta?: { public?: boolean }; inputs: unknown[] } };

/** Every procedure of the app router, by dotted path. */
export const PROCEDURES: [string, ProcedureDef][] = Object.entries(
  (appRouter._def as unknown as { procedures: Record<string, ProcedureDef> }).procedures,
);
