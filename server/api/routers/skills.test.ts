import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../compose.ts';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import { callerFor, testServices } from '../../testing/services.ts';

describe('skills router', () => {
  let handle: TestDb;
  let services: Services;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
  });
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('runs a comparison, then lists and reads it and its banks', async () => {
    const caller = callerFor(services);
    const r = await caller.skills.compare({
      bridge: 'household',
      policy: 'scripted:household-no-open',
      envs: 2,
      evalEnvs: 2,
    });
    expect(r.rows.map((x) => x.source)).toEqual(['none', 'original', 'envharness']);
    const list = await caller.skills.comparisons();
    expect(list.map((c) => c.id)).toContain(r.id);
    const one = await caller.skills.comparison({ id: r.id ?? '' });
    expect(one.policy).toBe('scripted:household-no-open');
    const banks = await caller.skills.banks();
    expect(banks.filter((b) => b.source === 'original' || b.source === 'envharness')).toHaveLength(
      2,
    );
    const bankId = r.rows[1]?.bankId ?? '';
    const bank = await caller.skills.bank({ id: bankId });
    expect(bank.skills.length).toBe(r.rows[1]?.skills);
    // The training episodes were recorded as runs: every source is a real, linkable episode.
    const sources = bank.skills.flatMap((s) => s.sourceEpisodeIds);
    expect(sources.length).toBeGreaterThan(0);
    for (const id of sources) expect(bank.episodeRuns[id]).toEqual(expect.any(String));
    const envharnessBank = await caller.skills.bank({ id: r.rows[2]?.bankId ?? '' });
    for (const s of envharnessBank.skills)
      for (const id of s.sourceEpisodeIds) expect(envharnessBank.episodeRuns[id]).toBeDefined();

    // A recorded run with this bank: the run keeps the bank id in its policy options.
    const { runId } = await caller.skills.launch({
      bankId,
      bridge: 'household',
      policy: 'bpe(scripted:household-no-open)',
      taskIds: ['eval_unseen-001'],
      rewardParams: { lambdaEff: 0.5 },
    });
    const done = await services.rollouts.waitForRun(runId);
    expect(done.status).toBe('completed');
    const run = await services.rollouts.getRunSummary(runId);
    expect(run.rewardParams).toMatchObject({ lambdaEff: 0.5 });
    expect(run.policyOptions).toMatchObject({ skillBankId: bankId });
    await expect(caller.skills.bank({ id: 'missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
