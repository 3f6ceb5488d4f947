import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { testServices } from '../testing/services.ts';
import { PROTECTED_USES, SkillBankState } from './bank.ts';
import { consolidateBankFromRun, extractBankFromRun } from './service.ts';
import { getBank, saveBank } from './store.ts';

describe('skill banks from recorded runs', () => {
  let handle: TestDb;
  let runId = '';
  let services: Services;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    ({ runId } = await services.rollouts.launchRun({
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'train-0001' } },
      taskIds: ['train-0001', 'train-0002'],
      policy: 'scripted:household-no-open',
      k: 1,
    }));
    await services.rollouts.waitForRun(runId);
  });
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('extracts a bank whose skills cite the run’s episodes', async () => {
    const r = await extractBankFromRun({ db: handle.db, bridges: builtInBridges }, { runId });
    const bank = await getBank(handle.db, r.bankId);
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
    const bankId = await saveBank(handle.db, {
      name: 'seeded',
      bridge: 'household',
      source: 'manual',
      config: {},
      bank: seed,
    });
    const before = await getBank(handle.db, bankId);
    const r = await consolidateBankFromRun(
      { db: handle.db, bridges: builtInBridges },
      { bankId, runId },
    );
    expect(r.applied).toBeGreaterThan(0);
    const after = await getBank(handle.db, bankId);
    expect(after.skills.length).toBe(before.skills.length + r.applied);
    expect(after.skills.find((s) => s.title === 'Where to find a unicorn')?.uses).toBe(
      PROTECTED_USES,
    );
    expect(after.edits.length).toBe(before.edits.length + r.applied);
  });
});
