// Audits end to end on this test's embedded database: the probes stored as runs of kind `audit`
// (each probe opens as an episode), recorded episodes whose reward and verdict disagree found and
// linked, each bridge's newest verdict, the run page's disagreement list, and `harness audit`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import { lockboxBridge } from '../../bridges/fixtures/lockbox.ts';
import type { AuditReport } from '../../contracts/audit.ts';
import { runCli } from '../cli/testing.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { testServices } from '../testing/services.ts';
import { playAudit } from './audit.ts';
import { runAudit } from './service.ts';
import { auditVerdicts, getAudit, latestBridgeAudits, runDisagreements } from './store.ts';

let handle: TestDb;
let services: Services;
const fixtures = resolverOf([lockboxBridge('sound'), lockboxBridge('lax')]);
const deps = () => ({
  db: handle.db,
  bridges: fixtures,
  play: (input: Parameters<typeof playAudit>[0]) => playAudit(input, fixtures),
});

beforeAll(async () => {
  handle = await createTestDb('pglite');
  services = await testServices(handle);
}, 60_000);

afterAll(async () => {
  await services.close();
  await handle.close();
});

/** A recorded run of the sound lockbox whose one episode was paid 1 but judged a failure. */
async function recordedDisagreeingRun(): Promise<{ runId: string; episodeId: string }> {
  const run = await handle.db.run.create({
    data: {
      policy: 'scripted:someone',
      spec: { version: 1, env: { type: 'base', bridge: 'lockbox', task: 'gem-in-box' } },
      taskIds: ['gem-in-box'],
      k: 2,
      seeds: [0, 1],
      maxSteps: 10,
      rewardParams: {},
      status: 'completed',
      bridge: 'lockbox',
      task: 'gem-in-box',
    },
  });
  const paid = await handle.db.episode.create({
    data: {
      runId: run.id,
      taskId: 'gem-in-box',
      seed: 0,
      ordinal: 0,
      status: 'done',
      outcome: 'failure',
      steps: 3,
      costReward: { total: 0, envReward: 1 },
      evaluation: { success: false, score: 0, metrics: {} },
    },
  });
  await handle.db.episode.create({
    data: {
      runId: run.id,
      taskId: 'gem-in-box',
      seed: 1,
      ordinal: 1,
      status: 'done',
      outcome: 'success',
      steps: 3,
      costReward: { total: 10, envReward: 1 },
      evaluation: { success: true, score: 1, metrics: {} },
    },
  });
  return { runId: run.id, episodeId: paid.id };
}

describe('stored audits', () => {
  it('store each probe as an episode of an audit run and mark the bridge that fails', async () => {
    const r = await runAudit(deps(), { bridge: 'lockbox-lax' }, { createdBy: 'local' });
    expect(r.passed).toBe(false);
    expect(r.id).toBeTruthy();
    const empty = r.tasks[0]?.empty;
    expect(empty?.status).toBe('fail');
    expect(empty?.runId).toBe(r.runs.empty);
    const episode = await handle.db.episode.findUniqueOrThrow({
      where: { id: empty?.episodeId ?? '' },
      include: { run: { select: { kind: true, policy: true } }, trajectory: true },
    });
    expect(episode.run).toEqual({ kind: 'audit', policy: 'scripted:audit-empty' });
    expect(episode.outcome).toBe('success');
    expect(episode.trajectory.map((s) => s.action)).toEqual([
      { name: 'act', args: { command: 'look' } },
      { name: 'act', args: { command: 'inventory' } },
    ]);
    const verdicts = await auditVerdicts(handle.db);
    expect(verdicts.find((v) => v.bridge === 'lockbox-lax')).toMatchObject({
      passed: false,
      suspicious: 2,
      tasks: 2,
    });
    expect((await getAudit(handle.db, r.id ?? '')).totals).toEqual(r.totals);
  });

  it('finds recorded episodes whose reward and verdict disagree, for the audit and the run page', async () => {
    const { runId, episodeId } = await recordedDisagreeingRun();
    const r = await runAudit(deps(), { bridge: 'lockbox', sample: 1 });
    expect(r.tasks.map((t) => t.taskId)).toHaveLength(1);
    const gem = await runAudit(deps(), { bridge: 'lockbox' });
    const task = gem.tasks.find((t) => t.taskId === 'gem-in-box');
    expect(task?.gold.status).toBe('pass');
    expect(task?.disagreements).toEqual([
      { kind: 'reward_without_success', reward: 1, success: false, score: 0, runId, episodeId },
    ]);
    expect(gem.passed).toBe(false);
    expect(gem.suspicious).toEqual(['gem-in-box']);
    // The newest audit per bridge is what the page shows.
    const latest = await latestBridgeAudits(handle.db);
    expect(latest.find((a) => a.bridge === 'lockbox')?.id).toBe(gem.id);
    const onRun = await runDisagreements(handle.db, runId);
    expect(onRun).toMatchObject({ checked: 2, total: 1, items: [{ episodeId, ordinal: 0 }] });
  });

  it('refuses an unknown split in one sentence', async () => {
    await expect(runAudit(deps(), { bridge: 'lockbox', split: 'nope' })).rejects.toThrow(
      "unknown split 'nope' for bridge 'lockbox' (splits: test)",
    );
  });
});

describe('harness audit', () => {
  it('audits a sample of household eval_seen, stores it and exits 0', async () => {
    const cli = (...argv: string[]) =>
      runCli(argv, { compose: async () => ({ ...services, close: async () => {} }) });
    const r = await cli('audit', 'household', '--split', 'eval_seen', '--sample', '4', '--json');
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    const report = JSON.parse(r.out) as AuditReport;
    expect(report.totals).toMatchObject({ tasks: 4, suspicious: 0 });
    expect(report.totals.gold.pass).toBe(4);
    expect(Object.keys(report.runs).sort()).toEqual(['empty', 'gold', 'perturbed']);
    const text = await cli('audit', 'household', '--split', 'eval_seen', '--sample', '2');
    expect(text.out).toMatch(/^PASSED: household eval_seen, 2 tasks in/);
    const usage = await cli('audit');
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/give a bridge/);
  }, 120_000);
});
