// `harness harnesses`, `harness harness <id>` and `harness decide` in-process, on the test's own
// embedded database: the decision gate scripted from the command line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../compose.ts';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import type { HarnessSpec } from '../../harness/spec.ts';
import { createHarnessWithVersion } from '../../harnesses/library.ts';
import { testServices } from '../../testing/services.ts';
import { runCli } from '../testing.ts';

const spec: HarnessSpec = {
  version: 1,
  env: {
    type: 'stage',
    actions: [{ name: 'act', args: { command: 'open fridge 1' } }],
    env: { type: 'base', bridge: 'household', task: 'eval_seen-004@scene0' },
  },
};

let handle: TestDb;
let services: Services;
const ids = { rejected: '', unvalidated: '', version: '' };

// The CLI on this test's services (and database), which outlive each command.
const cli = (...argv: string[]) =>
  runCli(argv, { compose: async () => ({ ...services, close: async () => {} }) });

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle);
  const db = handle.db;
  const rig = await db.rig.create({
    data: {
      bridge: 'household',
      taskId: 'eval_seen-004@scene0',
      policy: 'scripted:household-no-transform',
      designer: 'heuristic',
      k: 2,
      maxIterations: 2,
      constraints: { band: [0.4, 0.6] },
      status: 'completed',
    },
  });
  const mk = (iteration: number) =>
    db.candidate.create({
      data: { rigId: rig.id, iteration, spec, rationale: `#${iteration}`, decision: 'refine' },
    });
  ids.rejected = (await mk(0)).id;
  ids.unvalidated = (await mk(1)).id;
  const made = await createHarnessWithVersion(db, {
    name: 'Hand-made',
    spec,
    versionName: 'v1',
    createdBy: 'local',
    taskId: 'eval_seen-010',
  });
  ids.version = made.version.id;
}, 60_000);

afterAll(async () => {
  await services.close();
  await handle.close();
});

describe('harness decide', () => {
  it('rejects a candidate; a second decision exits 1 with one clear line', async () => {
    const r = await cli(
      'decide',
      '--candidate',
      ids.rejected,
      '--reject',
      '--reason',
      'too easy',
      '--json',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      candidateId: ids.rejected,
      state: 'rejected',
      decision: { decision: 'reject', reason: 'too easy', by: 'local' },
      harnessVersionId: null,
    });

    const again = await cli('decide', '--candidate', ids.rejected, '--approve', '--reason', 'x');
    expect(again.code).toBe(1);
    expect(again.out).toBe('');
    expect(again.err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(again.err).toMatch(
      new RegExp(
        `^harness: candidate ${ids.rejected} is already rejected \\(by local, .*"too easy"\\); a decision is final`,
      ),
    );
  });

  it('approving without a validation run needs --reason; with one it files the candidate', async () => {
    const bare = await cli('decide', '--candidate', ids.unvalidated, '--approve');
    expect(bare.code).toBe(1);
    expect(bare.err).toBe('harness: approving needs a reason: it has no validation run\n');
    const ok = await cli(
      'decide',
      '--candidate',
      ids.unvalidated,
      '--approve',
      '--reason',
      'checked by hand',
      '--json',
    );
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.out);
    expect(out.state).toBe('approved');
    expect(out.decision.concerns).toEqual(['it has no validation run']);

    // The library lists it under the benchmark task; its page shows the decision on v1.
    const list = await cli('harnesses', '--task', 'household:eval_seen-004', '--json');
    expect(list.code).toBe(0);
    const items = JSON.parse(list.out) as { id: string; status: string; versions: number }[];
    expect(items.map((h) => [h.id, h.status, h.versions])).toEqual([
      [out.harnessId, 'approved', 1],
    ]);
    const shown = await cli('harness', out.harnessId, '--json');
    const h = JSON.parse(shown.out);
    expect(h.versions).toHaveLength(1);
    expect(h.versions[0]).toMatchObject({
      id: out.harnessVersionId,
      status: 'approved',
      decision: { reason: 'checked by hand', by: 'local' },
    });
    expect(h.versions[0].decisions).toHaveLength(1);
  });

  it('decides and reverses a library version', async () => {
    expect(
      (await cli('decide', '--version', ids.version, '--reverse', '--reason', 'x')).err,
    ).toMatch(/has no decision to reverse/);
    const a = await cli('decide', '--version', ids.version, '--approve', '--reason', 'fine');
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/^version \S+ approved; harness \S+ version \S+\n$/);
    const noReason = await cli('decide', '--version', ids.version, '--reverse');
    expect(noReason.code).toBe(1);
    expect(noReason.err).toMatch(/reversing a decision needs a reason/);
    const rev = await cli(
      'decide',
      '--version',
      ids.version,
      '--reverse',
      '--reason',
      'leaks the goal',
      '--json',
    );
    expect(JSON.parse(rev.out)).toMatchObject({
      state: 'rejected',
      decision: { decision: 'reject' },
    });

    const harnessId = JSON.parse(rev.out).harnessId as string;
    const text = await cli('harness', harnessId);
    expect(text.out).toContain('rejected');
    expect(text.out).toContain('leaks the goal');
    const h = JSON.parse((await cli('harness', harnessId, '--json')).out);
    expect(h.versions[0].decisions.map((d: { decision: string }) => d.decision)).toEqual([
      'reject',
      'approve',
    ]);
  });

  it('usage errors exit 2; unknown ids exit 1', async () => {
    expect((await cli('decide', '--candidate', 'c', '--version', 'v', '--approve')).code).toBe(2);
    expect((await cli('decide', '--candidate', 'c')).code).toBe(2);
    expect((await cli('decide', '--candidate', 'c', '--approve', '--reject')).code).toBe(2);
    const missing = await cli('decide', '--version', 'nope', '--approve', '--reason', 'x');
    expect(missing).toMatchObject({ code: 1, err: "harness: harness version 'nope' not found\n" });
    expect((await cli('harness', 'nope')).code).toBe(1);
  });
});
