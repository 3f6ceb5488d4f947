import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { NotFoundError } from '../errors.ts';
import { episodeInput, loadRunSettings } from '../rollouts/run-settings.ts';
import { testServices } from '../testing/services.ts';
import { SkillBankState } from './bank.ts';
import { skillBankOptions } from './run-options.ts';
import { saveBank } from './store.ts';
import type { Skill } from './types.ts';

const SKILLS: Skill[] = [
  {
    id: 'p1',
    category: 'prior',
    taskType: null,
    title: 'Where to find a mug',
    description: '',
    content: 'Search order for mug: countertop > cabinet > shelf',
    sourceEpisodeIds: [],
    uses: 0,
  },
  {
    id: 'm1',
    category: 'mistake',
    taskType: null,
    title: 'Open closed receptacles',
    description: '',
    content: 'The target was never seen while closed receptacles stayed closed: open them.',
    sourceEpisodeIds: [],
    uses: 0,
  },
];

const spec = { version: 1, env: { type: 'base', bridge: 'household', task: 'train-0001' } };

describe('runs with a skill bank', () => {
  let handle: TestDb;
  let bankId = '';
  let services: Services;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    bankId = await saveBank(handle.db, {
      name: 'two skills',
      bridge: 'household',
      source: 'manual',
      config: {},
      bank: new SkillBankState(SKILLS),
    });
  });
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  it('refuses an unknown bank before the run is written', async () => {
    await expect(
      services.rollouts.launchRun({
        spec,
        policy: 'bpe(scripted:household-explorer)',
        policyOptions: { skillBankId: 'missing' },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await handle.db.run.count()).toBe(0);
  });

  it('records the bank id on the run and gives a bpe policy the bank as its experience store', async () => {
    const { runId } = await services.rollouts.launchRun({
      spec,
      policy: 'bpe(scripted:household-explorer)',
      policyOptions: { skillBankId: bankId },
    });
    await services.rollouts.waitForRun(runId);
    const run = await services.rollouts.getRunSummary(runId);
    expect(run.policyOptions).toMatchObject({ skillBankId: bankId });
    const settings = await loadRunSettings(
      handle.db,
      skillBankOptions(handle.db, builtInBridges),
      runId,
    );
    const input = episodeInput(settings, { taskId: 'train-0001', seed: 0 });
    const experience = (input.policyOptions?.experience ?? []) as Skill[];
    expect(experience.map((s) => s.title).sort()).toEqual(SKILLS.map((s) => s.title).sort());
    const episode = await handle.db.episode.findFirstOrThrow({ where: { runId } });
    const steps = await services.rollouts.getSteps(episode.id, { limit: 5 });
    const meta = steps.items[0]?.meta as {
      bpe?: { workspace: { experience: { size: number } } };
    };
    expect(meta.bpe?.workspace.experience.size).toBe(SKILLS.length);
  });

  it('gives a bare scripted policy the skills retrieved for each task', async () => {
    const { runId } = await services.rollouts.launchRun({
      spec,
      taskIds: ['train-0001', 'train-0002'],
      policy: 'scripted:household-no-open',
      policyOptions: { skillBankId: bankId },
    });
    await services.rollouts.waitForRun(runId);
    const settings = await loadRunSettings(
      handle.db,
      skillBankOptions(handle.db, builtInBridges),
      runId,
    );
    for (const taskId of ['train-0001', 'train-0002']) {
      const input = episodeInput(settings, { taskId, seed: 0 });
      expect(input.policyOptions?.skillBankId).toBe(bankId);
      expect(Array.isArray(input.policyOptions?.skillText)).toBe(true);
      expect(((input.policyOptions?.skillText ?? []) as string[]).length).toBeGreaterThan(0);
    }
  });
});
