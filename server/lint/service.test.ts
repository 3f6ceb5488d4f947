// What lint reads from the store: recorded successes of exactly the base task (bare runs only,
// shortest first) and saved harnesses named on the command line; and `harness lint` end to end on
// this test's embedded database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../bridges/core/types.ts';
import type { LintResult } from '../../contracts/lint.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { runCli } from '../cli/testing.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { createHarnessWithVersion, saveHarnessVersion } from '../harnesses/library.ts';
import { testServices } from '../testing/services.ts';
import { recordedSuccesses, savedHarnessSpec } from './service.ts';

const TASK = 'eval_seen-004';
/** The recorded rows below are made up: they live on another task than the one linted by the CLI. */
const OTHER = 'eval_seen-010';
const act = (command: string): Action => ({ name: 'act', args: { command } });
const baseOf = (task: string): HarnessSpec => ({
  version: 1,
  env: { type: 'base', bridge: 'household', task },
});
const bare = baseOf(TASK);
const other = baseOf(OTHER);
const BLOCK_TAKE = `export function filterAction(a) {
  if (/^take /.test(String(a.args.command))) return { blocked: 'No taking.' };
  return a;
}`;
const blocked: HarnessSpec = {
  version: 1,
  env: { type: 'contract', code: BLOCK_TAKE, env: bare.env },
};

let handle: TestDb;
let services: Services;
let harnessId = '';

async function episode(
  spec: HarnessSpec,
  o: { taskId: string; outcome: 'success' | 'failure'; seed: number; actions: Action[] },
): Promise<string> {
  const db = handle.db;
  const run = await db.run.create({
    data: {
      policy: 'scripted:household-explorer',
      spec: spec as object,
      taskIds: [o.taskId],
      k: 1,
      seeds: [o.seed],
      maxSteps: 50,
      rewardParams: {},
      status: 'completed',
      bridge: 'household',
      task: o.taskId,
    },
  });
  const ep = await db.episode.create({
    data: {
      runId: run.id,
      taskId: o.taskId,
      seed: o.seed,
      ordinal: 0,
      status: 'done',
      outcome: o.outcome,
      steps: o.actions.length,
    },
  });
  await db.step.createMany({
    data: o.actions.map((action, index) => ({
      episodeId: ep.id,
      index,
      action: action as object,
      observation: 'ok',
      reward: 0,
      terminated: false,
      truncated: false,
      changes: [],
      info: {},
    })),
  });
  return ep.id;
}

const cli = (...argv: string[]) =>
  runCli(argv, { compose: async () => ({ ...services, close: async () => {} }) });

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle);
  const made = await createHarnessWithVersion(handle.db, {
    name: 'No taking',
    spec: blocked,
    versionName: 'v1',
    createdBy: 'local',
    taskId: TASK,
  });
  harnessId = made.harnessId;
  await saveHarnessVersion(handle.db, { harnessId, name: 'v2', spec: bare, createdBy: 'local' });
}, 60_000);

afterAll(async () => {
  await services.close();
  await handle.close();
});

describe('recorded successes', () => {
  it("are the bare task's successful episodes, shortest first, with their actions in order", async () => {
    const long = await episode(other, {
      taskId: OTHER,
      outcome: 'success',
      seed: 3,
      actions: [act('look'), act('inventory'), act('go to cabinet 1')],
    });
    const short = await episode(other, {
      taskId: OTHER,
      outcome: 'success',
      seed: 1,
      actions: [act('look'), act('go to fridge 1')],
    });
    await episode(other, { taskId: OTHER, outcome: 'failure', seed: 2, actions: [act('look')] });
    const harnessed: HarnessSpec = {
      version: 1,
      env: { ...blocked.env, env: other.env },
    } as HarnessSpec;
    await episode(harnessed, {
      taskId: OTHER,
      outcome: 'success',
      seed: 4,
      actions: [act('look')],
    });
    await episode(other, {
      taskId: `${OTHER}@scene0`,
      outcome: 'success',
      seed: 0,
      actions: [act('look')],
    });
    const got = await recordedSuccesses(handle.db, harnessed);
    expect(got).toEqual([
      { episodeId: short, seed: 1, actions: [act('look'), act('go to fridge 1')] },
      {
        episodeId: long,
        seed: 3,
        actions: [act('look'), act('inventory'), act('go to cabinet 1')],
      },
    ]);
    const pinned = await recordedSuccesses(handle.db, other, { taskId: `${OTHER}@scene0` });
    expect(pinned).toHaveLength(1);
  });
});

describe('saved harness references', () => {
  it('name the newest version, or one by number; a missing one is a clear error', async () => {
    expect((await savedHarnessSpec(handle.db, `harness:${harnessId}`)).version).toBe(2);
    const v1 = await savedHarnessSpec(handle.db, `harness:${harnessId}@1`);
    expect(v1.spec).toEqual(blocked);
    await expect(savedHarnessSpec(handle.db, `harness:${harnessId}@9`)).rejects.toThrow(
      `harness '${harnessId}' has no version 9 (versions: 1, 2)`,
    );
    await expect(savedHarnessSpec(handle.db, 'harness:nope')).rejects.toThrow(
      "harness 'nope' not found",
    );
    await expect(savedHarnessSpec(handle.db, 'harness:')).rejects.toThrow(/harness:<id>@<version>/);
  });
});

describe('harness lint', () => {
  it('refutes a saved harness that blocks `take` (exit 1) and proves the bare task (exit 0)', async () => {
    const r = await cli('lint', '--spec', `harness:${harnessId}@1`, '--json');
    expect({ code: r.code, err: r.err }).toEqual({ code: 1, err: '' });
    const result = JSON.parse(r.out) as LintResult;
    expect(result.solvable).toBe('refuted');
    expect(result.findings[0]).toMatchObject({
      rule: 'contract-blocks-verb',
      severity: 'error',
      path: 'env',
      step: expect.any(Number),
    });

    const ok = await cli('lint', '--spec', `household:${TASK}`);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(
      /^solvable: proved by the oracle plan \(\d+ steps\)\n {2}witness \(seed 0\): /,
    );

    const missing = await cli('lint');
    expect(missing).toMatchObject({ code: 2, out: '' });
    expect(missing.err).toMatch(/^harness: --spec is required/);
  }, 120_000);
});
