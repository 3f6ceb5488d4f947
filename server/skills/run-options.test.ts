import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { NotFoundError } from '../errors.ts';
import { setRolloutDb } from '../rollouts/db.ts';
import { inProcessExecutor, validateRun } from '../rollouts/default-engine.ts';
import { setRolloutEngine } from '../rollouts/engine.ts';
import { episodeInput, loadRunSettings } from '../rollouts/run-settings.ts';
import {
  closeRollouts,
  getRunSummary,
  getSteps,
  launchRun,
  waitForRun,
} from '../rollouts/service.ts';
import { SkillBankState } from './bank.ts';
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
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    setRolloutDb(handle.db);
    setRolloutEngine({ validate: validateRun, executor: () => inProcessExecutor() });
    bankId = await saveBank({
      name: 'two skills',
      bridge: 'household',
      source: 'manual',
      config: {},
      bank: new SkillBankState(SKILLS),
    });
  });
  afterAll(async () => {
    await closeRollouts();
    setRolloutEngine(undefined);
    setRolloutDb(undefined);
    await handle.close();
  });

  it('refuses an unknown bank before the run is written', async () => {
    await expect(
      launchRun({
        spec,
        policy: 'bpe(scripted:household-explorer)',
        policyOptions: { skillBankId: 'missing' },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await handle.db.run.count()).toBe(0);
  });

  it('records the bank id on the run and gives a bpe policy the bank as its experience store', async () => {
    const { runId } = await launchRun({
      spec,
      policy: 'bpe(scripted:household-explorer)',
      policyOptions: { skillBankId: bankId },
    });
    await waitForRun(runId);
    const run = await getRunSummary(runId);
    expect(run.rewardParams).toMatchObject({ policyOptions: { skillBankId: bankId } });
    const settings = await loadRunSettings(runId);
    const input = episodeInput(settings, { taskId: 'train-0001', seed: 0 });
    const experience = (input.policyOptions?.experience ?? []) as Skill[];
    expect(experience.map((s) => s.title).sort()).toEqual(SKILLS.map((s) => s.title).sort());
    const episode = await handle.db.episode.findFirstOrThrow({ where: { runId } });
    const steps = await getSteps(episode.id, { limit: 5 });
    const meta = steps.items[0]?.meta as {
      bpe?: { workspace: { experience: { size: number } } };
    };
    expect(meta.bpe?.workspace.experience.size).toBe(SKILLS.length);
  });

  it('gives a bare scripted policy the skills retrieved for each task', async () => {
    const { runId } = await launchRun({
      spec,
      taskIds: ['train-0001', 'train-0002'],
      policy: 'scripted:household-no-open',
      policyOptions: { skillBankId: bankId },
    });
    await waitForRun(runId);
    const settings = await loadRunSettings(runId);
    for (const taskId of ['train-0001', 'train-0002']) {
      const input = episodeInput(settings, { taskId, seed: 0 });
      expect(input.policyOptions?.skillBankId).toBe(bankId);
      expect(Array.isArray(input.policyOptions?.skillText)).toBe(true);
      expect(((input.policyOptions?.skillText ?? []) as string[]).length).toBeGreaterThan(0);
    }
  });
});
