// Issue 16 item 2: every id anywhere in an input is authorised, not only the top-level keys. For
// every procedure, ids of project A are placed at every position an input may hold one (top level,
// nested options, deep in a spec, inside arrays, in id lists) and sent by an admin of project B:
// each must be refused, and exactly as a made-up id is (no oracle for which ids exist).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NON_RESOURCE_ID_KEYS, RESOURCE_KEYS } from '../api/input-guards.ts';
import type { ResourceKind } from './resources.ts';
import { answerOf, BASE_SPEC, call, PROCEDURES, type Team, teamFixture } from './team.fixture.ts';

let team: Team;
let adminB: unknown;

beforeAll(async () => {
  team = await teamFixture();
  adminB = await team.callerFor({ session: team.tokens.adminB });
}, 120_000);

afterAll(async () => {
  await team?.close();
});

const KINDS: ResourceKind[] = [
  'run',
  'episode',
  'harness',
  'harnessVersion',
  'rig',
  'candidate',
  'bank',
  'comparison',
  'project',
  'shareLink',
];
const KEY_OF: Record<ResourceKind, string> = {
  run: 'runId',
  episode: 'episodeId',
  harness: 'harnessId',
  harnessVersion: 'harnessVersionId',
  rig: 'rigId',
  candidate: 'candidateId',
  bank: 'skillBankId',
  comparison: 'comparisonId',
  project: 'projectId',
  shareLink: 'shareLinkId',
};

/** Every position an input may hold an id, for one key. */
function placements(key: string, id: string): Record<string, unknown> {
  return {
    top: { [key]: id },
    'nested options': { policyOptions: { tags: ['x'], [key]: id } },
    'deep in a spec': {
      spec: { version: 1, env: { type: 'stage', actions: [], env: { [key]: id } } },
    },
    'in an array': { items: [{ name: 'a' }, { args: { [key]: id } }] },
    'in an id list': { [`${key}s`]: ['c0000000000000000000000000', id] },
  };
}

/** A made-up id shaped like a real one (a cuid), so only existence could tell them apart. */
function madeUp(like: string): string {
  return `c${randomBytes(32)
    .toString('hex')
    .slice(0, like.length - 1)}`;
}

/** The answers to a foreign and a made-up id must be the same, the ids aside. */
async function compare(path: string, foreign: string, build: (id: string) => unknown) {
  const fake = madeUp(foreign);
  const a = await answerOf(call(adminB, path, build(foreign)));
  const b = await answerOf(call(adminB, path, build(fake)));
  expect(
    { code: a.code, message: a.message.replaceAll(foreign, '<id>') },
    `${path}: a foreign id answers as a made-up one`,
  ).toEqual({ code: b.code, message: b.message.replaceAll(fake, '<id>') });
  return a;
}

const guarded = PROCEDURES.filter(([, p]) => !p._def.meta?.public).map(([path]) => path);

/** The top-level keys of a procedure's input, from its zod schema. */
function inputKeys(path: string): Set<string> {
  const keys = new Set<string>();
  const def = PROCEDURES.find(([p]) => p === path)?.[1]._def;
  for (const schema of def?.inputs ?? []) {
    const json = z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'input' });
    const props = (json as { properties?: Record<string, unknown> }).properties ?? {};
    for (const k of Object.keys(props)) keys.add(k);
  }
  return keys;
}

describe('ids anywhere in an input (issue 16, item 2)', () => {
  it('runs.launch refuses a skill bank of another project in policyOptions, as a made-up one', async () => {
    const before = await team.handle.db.run.count();
    const launch = (skillBankId: string) => ({
      spec: BASE_SPEC,
      policy: 'scripted:toy24-exact',
      maxSteps: 3,
      policyOptions: { skillBankId },
    });
    const answer = await compare('runs.launch', team.inA.bank, launch);
    expect(answer.code).toBe('NOT_FOUND');
    expect(await team.handle.db.run.count()).toBe(before);
    // The caller's own bank is accepted: the guard refuses other projects, not skill banks.
    expect((await answerOf(call(adminB, 'runs.launch', launch(team.bankB)))).code).toBe('OK');
    const bankLaunch = (bankId: string) => ({
      bankId,
      bridge: 'toy24',
      policy: 'x',
      taskIds: ['t'],
    });
    expect((await compare('skills.launch', team.inA.bank, bankLaunch)).code).toBe('NOT_FOUND');
  }, 60_000);

  it('every procedure refuses a nested id of another project, at every position', async () => {
    expect(guarded.length).toBeGreaterThan(40);
    let n = 0;
    for (const [i, path] of guarded.entries()) {
      const where = Object.keys(placements('k', 'v'));
      for (const [j, position] of where.entries()) {
        // Kinds rotate over procedures and positions, so each position meets every kind.
        const kind = KINDS[(i + j) % KINDS.length]!;
        const build = (id: string) => placements(KEY_OF[kind], id)[position];
        const answer = await compare(path, team.inA[kind], build);
        expect(answer.code, `${path}, ${kind} ${position}`).toBe('NOT_FOUND');
        n++;
      }
    }
    expect(n).toBe(guarded.length * 5);
  }, 240_000);

  it('every kind of resource is refused at every position (one procedure, the full matrix)', async () => {
    for (const kind of KINDS) {
      for (const position of Object.keys(placements('k', 'v'))) {
        const build = (id: string) => placements(KEY_OF[kind], id)[position];
        const answer = await compare('harnesses.check', team.inA[kind], build);
        expect(answer.code, `${kind} ${position}`).toBe('NOT_FOUND');
      }
    }
  }, 120_000);

  it("a procedure's own `id` refuses another project's resource of any kind, as a made-up one", async () => {
    const withId = guarded.filter((path) => inputKeys(path).has('id'));
    expect(withId).toEqual(
      expect.arrayContaining(['runs.byId', 'skills.bank', 'auth.revokeShare']),
    );
    for (const path of withId) {
      for (const kind of KINDS) {
        const answer = await compare(path, team.inA[kind], (id) => ({ id }));
        expect(answer.code, `${path} {id: ${kind}}`).toBe('NOT_FOUND');
      }
    }
    // Procedures without an `id` ignore one, the same way whether or not it exists.
    for (const [i, path] of guarded.filter((p) => !withId.includes(p)).entries()) {
      await compare(path, team.inA[KINDS[i % KINDS.length]!], (id) => ({ id }));
    }
  }, 240_000);

  it('every id-like key of every input is a guarded resource key or named as none', () => {
    const unknown: string[] = [];
    for (const path of guarded) {
      for (const key of inputKeys(path)) {
        if (!/(^id|Id|Ids)$/.test(key) && key !== 'ids') continue;
        if (!(key in RESOURCE_KEYS) && !NON_RESOURCE_ID_KEYS.has(key))
          unknown.push(`${path}.${key}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('a share-link visitor is refused a nested id the link does not cover', async () => {
    const guest = await team.callerFor({
      share: (
        await team.accounts.shares.create({
          kind: 'run',
          ids: [team.inA.run],
          by: 'x',
          projectId: team.projectA,
        })
      ).token,
    });
    expect((await answerOf(call(guest, 'runs.byId', { id: team.inA.run }))).code).toBe('OK');
    const nested = { id: team.inA.run, options: { skillBankId: team.inA.bank } };
    expect((await answerOf(call(guest, 'runs.byId', nested))).code).toBe('FORBIDDEN');
  });
});
