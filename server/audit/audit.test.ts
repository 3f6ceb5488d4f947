// The verifier audit's probes on fixture bridges with known verifiers and on the household bridge.
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../../bridges/core/capabilities.ts';
import { lockboxBridge } from '../../bridges/fixtures/lockbox.ts';
import { householdBridge } from '../../bridges/household/index.ts';
import { AuditReportSchema } from '../../contracts/audit.ts';
import type { HarnessSpec } from '../harness/index.ts';
import { act, fakeBridges } from '../harness/testing/fake-bridges.ts';
import { playAudit } from './audit.ts';
import { auditReport } from './report.ts';

const bridges = resolverOf([
  lockboxBridge('sound'),
  lockboxBridge('lax'),
  lockboxBridge('tipsy'),
  lockboxBridge('submit'),
  householdBridge,
  fakeBridges().room,
]);

const bare = (bridge: string, task: string): HarnessSpec => ({
  version: 1,
  env: { type: 'base', bridge, task },
});

async function audit(bridge: string, tasks: { id: string; type: string }[], recorded = {}) {
  const played = await playAudit(
    { spec: bare(bridge, tasks[0]?.id ?? ''), tasks, seed: 0, recorded },
    bridges,
  );
  const report = auditReport({
    bridge,
    split: null,
    sample: null,
    seed: 0,
    played: played.tasks,
    ms: played.ms,
  });
  return { report: AuditReportSchema.parse(report), episodes: played.episodes };
}

const LOCKBOX_TASKS = [
  { id: 'gem-in-box', type: 'pick' },
  { id: 'coin-in-box', type: 'pick' },
];

describe('verifier audit', () => {
  it('passes a sound verifier: gold passes, empty and perturbed gold fail', async () => {
    const { report, episodes } = await audit('lockbox', LOCKBOX_TASKS);
    expect(report.passed).toBe(true);
    expect(report.totals).toMatchObject({
      tasks: 2,
      gold: { pass: 2, fail: 0, na: 0 },
      empty: { pass: 2, fail: 0, na: 0 },
      perturbed: { pass: 2, fail: 0, na: 0 },
      disagreements: 0,
      suspicious: 0,
    });
    const t = report.tasks[0];
    expect(t?.gold).toMatchObject({
      status: 'pass',
      success: true,
      reward: 1,
      steps: 3,
      source: 'oracle',
    });
    expect(t?.empty).toMatchObject({ status: 'pass', success: false, steps: 2 });
    expect(t?.empty.note).toBe('played "look", "inventory"');
    expect(t?.perturbed).toMatchObject({ status: 'pass', success: false });
    expect(t?.perturbed.note).toBe('without step 3 of 3 ("put gem in box")');
    // Every probe was played and kept for the store: 3 per task.
    expect(episodes.map((e) => `${e.probe}:${e.taskId}`)).toHaveLength(6);
  });

  it('catches a verifier that ignores the goal with the "empty fails" check', async () => {
    const { report } = await audit('lockbox-lax', LOCKBOX_TASKS);
    expect(report.passed).toBe(false);
    expect(report.suspicious).toEqual(['gem-in-box', 'coin-in-box']);
    const t = report.tasks[0];
    expect(t?.empty).toMatchObject({ status: 'fail', success: true });
    expect(t?.perturbed.status).toBe('fail');
    expect(t?.reasons).toContain('empty passes: a no-op policy is judged a success');
    // It also pays no reward for what it calls a success: the verdicts and rewards disagree.
    expect(t?.disagreements.map((d) => [d.probe, d.kind])).toEqual([
      ['empty', 'success_without_reward'],
      ['perturbed', 'success_without_reward'],
    ]);
  });

  it('flags episodes whose summed reward and verdict disagree', async () => {
    const { report } = await audit('lockbox-tipsy', LOCKBOX_TASKS.slice(0, 1));
    const t = report.tasks[0];
    expect(t?.gold.status).toBe('pass');
    // The perturbed gold took the gem (reward 0.5) but never placed it: reward without success.
    expect(t?.disagreements).toEqual([
      { kind: 'reward_without_success', reward: 0.5, success: false, score: 0, probe: 'perturbed' },
    ]);
    expect(report.passed).toBe(false);
  });

  it('perturbs the last step that changed the work, not a bare submit or a logged check', async () => {
    const { report } = await audit('lockbox-submit', LOCKBOX_TASKS.slice(0, 1));
    const t = report.tasks[0];
    expect(t?.gold).toMatchObject({ status: 'pass', steps: 5 });
    expect(t?.perturbed.note).toBe(
      'without step 3 of 5 ("put gem in box"); without step 4 ("check") it still passed (a step that does not change what the verifier judges)',
    );
    expect(t?.perturbed.status).toBe('pass');
    expect(report.passed).toBe(true);
  });

  it('takes gold from a recorded success where the bridge has no oracle, and says so where it has none', async () => {
    const recorded = {
      'key-in-box': [
        {
          episodeId: 'ep-7',
          seed: 0,
          actions: [act('take key'), act('open box'), act('put key in box')],
        },
      ],
    };
    const { report } = await audit(
      'room',
      [
        { id: 'key-in-box', type: 'pick' },
        { id: 'hold-coin', type: 'pick' },
      ],
      recorded,
    );
    expect(report.tasks[0]?.gold).toMatchObject({
      status: 'pass',
      source: 'recorded',
      fromEpisodeId: 'ep-7',
    });
    expect(report.tasks[0]?.perturbed.status).toBe('pass');
    expect(report.tasks[1]?.gold.status).toBe('n/a');
    expect(report.tasks[1]?.gold.note).toMatch(/^no gold/);
    expect(report.tasks[1]?.perturbed.status).toBe('n/a');
    expect(report.totals.gold).toEqual({ pass: 1, fail: 0, na: 1 });
  });

  it('passes the household bridge on a sample of eval_seen', async () => {
    const tasks = (await householdBridge.listTasks({ split: 'eval_seen' })).slice(0, 12);
    const { report } = await audit('household', tasks);
    expect(report.totals.gold.pass).toBe(12);
    expect(report.totals.empty.pass).toBe(12);
    expect(report.totals.perturbed.pass).toBe(12);
    expect(report.passed).toBe(true);
  });
});
