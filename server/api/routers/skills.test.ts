import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../db/testing.ts';
import { setRolloutDb } from '../../rollouts/db.ts';
import { createCaller } from '../root.ts';
import { createContext } from '../trpc.ts';

describe('skills router', () => {
  let handle: TestDb;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    setRolloutDb(handle.db);
  });
  afterAll(async () => {
    setRolloutDb(undefined);
    await handle.close();
  });

  it('runs a comparison, then lists and reads it and its banks', async () => {
    const caller = createCaller(createContext());
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
    await expect(caller.skills.bank({ id: 'missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
