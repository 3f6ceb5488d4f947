import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { RunEvents } from '../rollouts/events.ts';
import { compareSkillSources, sampleTasks } from './compare.ts';
import { getBank, getComparison } from './store.ts';

describe('skill-source comparison', () => {
  let handle: TestDb;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
  });
  afterAll(async () => {
    await handle.close();
  });
  const deps = () => ({
    bridges: builtInBridges,
    store: { db: handle.db, events: new RunEvents(handle.db) },
  });

  it('wraps the training envs in Stages pinned to the seed scene when the band accepts them', async () => {
    const r = await compareSkillSources(deps(), {
      bridge: 'household',
      policy: 'scripted:household-explorer',
      envs: 2,
      evalEnvs: 1,
      seed: 1,
      band: [0, 1],
      validateK: 1,
      persist: false,
    });
    expect(r.envharness.filter((e) => e.spec)).toHaveLength(2);
    for (const e of r.envharness) {
      expect(e.spec?.env).toMatchObject({
        type: 'stage',
        env: { type: 'base', task: `${e.taskId}@scene1` },
      });
    }
  });

  it('samples tasks by seed, independent of listing order', () => {
    const tasks = ['a', 'b', 'c', 'd'].map((id) => ({ id, type: 't', goal: '', split: 's' }));
    const one = sampleTasks(tasks, 2, 7).map((t) => t.id);
    expect(sampleTasks([...tasks].reverse(), 2, 7).map((t) => t.id)).toEqual(one);
    expect(sampleTasks(tasks, 0, 7)).toHaveLength(4);
  });

  it('builds three rows from the same seeds and envs, and persists the banks and the result', async () => {
    const r = await compareSkillSources(deps(), {
      bridge: 'household',
      policy: 'scripted:household-no-open',
      envs: 3,
      evalEnvs: 3,
      seed: 1,
    });
    expect(r.rows.map((x) => x.source)).toEqual(['none', 'original', 'envharness']);
    for (const row of r.rows) expect(row.n + row.errors).toBe(3);
    expect(r.rows[0]?.skills).toBe(0);
    expect(r.trainTasks).toHaveLength(3);
    expect(r.envharness.map((e) => e.taskId)).toEqual(r.trainTasks);
    // Every (c) env that got a harness is a Stage over the same task, scene pinned to the seed.
    for (const e of r.envharness.filter((x) => x.spec)) {
      expect(e.spec?.env).toMatchObject({
        type: 'stage',
        env: { type: 'base', task: `${e.taskId}@scene1` },
      });
    }
    expect(r.id).toBeTruthy();
    const stored = await getComparison(handle.db, r.id ?? '');
    expect(stored.results).toMatchObject({ trainTasks: r.trainTasks, evalTasks: r.evalTasks });
    const bankId = r.rows[1]?.bankId;
    expect(bankId).toBeTruthy();
    const bank = await getBank(handle.db, bankId ?? '');
    expect(bank.skills).toHaveLength(r.rows[1]?.skills ?? -1);
    expect(bank.edits.filter((e) => e.op === 'add')).toHaveLength(bank.skills.length);
  });
});
