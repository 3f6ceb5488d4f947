import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { setRolloutDb } from '../rollouts/db.ts';
import { inProcessExecutor, validateRun } from '../rollouts/default-engine.ts';
import { setRolloutEngine } from '../rollouts/engine.ts';
import { closeRollouts, launchRun, waitForRun } from '../rollouts/service.ts';
import { PROTECTED_USES, SkillBankState } from './bank.ts';
import { consolidateBankFromRun, extractBankFromRun } from './service.ts';
import { getBank, saveBank } from './store.ts';

describe('skill banks from recorded runs', () => {
  let handle: TestDb;
  let runId = '';
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    setRolloutDb(handle.db);
    setRolloutEngine({ validate: validateRun, executor: () => inProcessExecutor() });
    ({ runId } = await launchRun({
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'train-0001' } },
      taskIds: ['train-0001', 'train-0002'],
      policy: 'scripted:household-no-open',
      k: 1,
    }));
    await waitForRun(runId);
  });
  afterAll(async () => {
    await closeRollouts();
    setRolloutEngine(undefined);
    setRolloutDb(undefined);
    await handle.close();
  });

  it('extracts a bank whose skills cite the run’s episodes', async () => {
    const r = await extractBankFromRun({ runId });
    const bank = await getBank(r.bankId);
    expect(bank.skills.length).toBe(r.skills);
    expect(bank.skills.length).toBeGreaterThan(0);
    const cited = new Set(bank.skills.flatMap((s) => s.sourceEpisodeIds));
    const episodes = await handle.db.episode.findMany({ where: { runId }, select: { id: true } });
    for (const id of cited) expect(episodes.map((e) => e.id)).toContain(id);
    expect(bank.edits.map((e) => e.op)).toEqual(bank.skills.map(() => 'add'));
  });

  it('consolidates a later batch into an existing bank with validated, logged edits', async () => {
    const seed = new SkillBankState([
      {
        id: 'x',
        category: 'prior',
        taskType: null,
        title: 'Where to find a unicorn',
        description: '',
        content: 'Search order for unicorn: stable',
        sourceEpisodeIds: [],
        uses: PROTECTED_USES,
      },
    ]);
    const bankId = await saveBank({
      name: 'seeded',
      bridge: 'household',
      source: 'manual',
      config: {},
      bank: seed,
    });
    const before = await getBank(bankId);
    const r = await consolidateBankFromRun({ bankId, runId });
    expect(r.applied).toBeGreaterThan(0);
    const after = await getBank(bankId);
    expect(after.skills.length).toBe(before.skills.length + r.applied);
    expect(after.skills.find((s) => s.title === 'Where to find a unicorn')?.uses).toBe(
      PROTECTED_USES,
    );
    expect(after.edits.length).toBe(before.edits.length + r.applied);
  });
});
