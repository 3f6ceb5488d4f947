import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { bpePolicy, parseBpeId } from '../policies/bpe/index.ts';
import type { Policy, PolicyDecision } from '../policies/types.ts';
import { runEpisodeWith } from '../rollouts/episode.ts';
import type { Rollouts } from '../rollouts/service.ts';
import { counterDeps, counterEngine, counterSpec, inc, testRollouts } from '../rollouts/testing.ts';
import { groupAdvantages, grpoSamples, parseRewardOverrides } from './grpo.ts';

describe('GRPO groups', () => {
  it('normalises advantages within each group of one task and start seed (hand-computed)', () => {
    const items = [
      { episodeId: 'a', taskId: 't1', seed: 0, startSeed: 0, reward: 10 },
      { episodeId: 'b', taskId: 't1', seed: 1, startSeed: 0, reward: 0 },
      { episodeId: 'c', taskId: 't1', seed: 2, startSeed: 0, reward: 5 },
      { episodeId: 'd', taskId: 't1', seed: 3, startSeed: 1, reward: 7 },
      { episodeId: 'e', taskId: 't2', seed: 0, startSeed: 0, reward: 3 },
      { episodeId: 'f', taskId: 't2', seed: 1, startSeed: 0, reward: 3 },
    ];
    const out = groupAdvantages(items);
    const by = Object.fromEntries(out.map((o) => [o.episodeId, o]));
    // t1@start0 = {10, 0, 5}: mean 5, population std sqrt(50/3)
    const std = Math.sqrt(50 / 3);
    expect(by.a?.advantage).toBeCloseTo(5 / std, 12);
    expect(by.b?.advantage).toBeCloseTo(-5 / std, 12);
    expect(by.c?.advantage).toBe(0);
    expect(by.a?.group).toBe('t1@start0');
    // t1@start1 = {7} alone, t2@start0 = {3, 3}: std 0 -> advantage = R - mean = 0
    expect(by.d).toMatchObject({ group: 't1@start1', groupSize: 1, advantage: 0 });
    expect(by.e).toMatchObject({ group: 't2@start0', groupSize: 2, advantage: 0 });
    const sums = new Map<string, number>();
    for (const o of out) sums.set(o.group, (sums.get(o.group) ?? 0) + o.advantage);
    for (const s of sums.values()) expect(Math.abs(s)).toBeLessThan(1e-12);
  });

  it('reads reward overrides and rejects unknown ones', () => {
    expect(parseRewardOverrides('lambdaEff=2, tMax=30')).toEqual({ lambdaEff: 2, tMax: 30 });
    expect(() => parseRewardOverrides('lambdaFoo=1')).toThrow(/known: success, tMax/);
    expect(() => parseRewardOverrides('tMax=')).toThrow(/name=number/);
  });
});

describe('cost-aware reward on a trajectory with meta-actions', () => {
  it('equals the hand-computed value term by term', async () => {
    const inner: Policy = {
      descriptor: { id: 'test:llm', kind: 'openai', description: 't' },
      async start() {
        const script: PolicyDecision[] = [
          { kind: 'act', action: { name: 'note', args: { insight: 'count up' } } },
          { kind: 'act', action: { name: 'track', args: { target: '' } } }, // malformed: empty target
          inc,
          inc,
          inc,
        ];
        let i = 0;
        return { act: async () => script[i++] ?? { kind: 'give_up' } };
      },
    };
    const parsed = parseBpeId('bpe(test:llm)');
    if (!parsed) throw new Error('id');
    const deps = counterDeps(bpePolicy('bpe(test:llm)', parsed, inner));
    const r = await runEpisodeWith(deps, { spec: counterSpec, seed: 0, policyId: 'x' });
    expect(r.outcome).toBe('success');
    expect(r.steps).toBe(5);
    // |τ| = 5; verbs {note, inc} (a malformed step has none) -> R_div = 2/5; repeats inc,inc,inc -> 2;
    // one invalid step. R = 10 + 1·(1 − 5/50) + 1·0.4 − 0.1·2 − 0.1·1 = 11.0
    expect(r.reward).toMatchObject({
      rSucc: 10,
      rEff: 0.9,
      rDiv: 0.4,
      rSpam: 2,
      rInv: 1,
      lambdaDiv: 1,
    });
    expect(r.reward?.total).toBeCloseTo(11.0, 12);
  });
});

describe('GRPO export of a recorded run', () => {
  let handle: TestDb;
  let rollouts: Rollouts;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    rollouts = testRollouts(handle, counterEngine());
  });
  afterAll(async () => {
    await rollouts.close();
    await handle.close();
  });

  it('groups a run made with --group-size by shared start seed: one first observation per group', async () => {
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:seeded',
      k: 8,
      seed: 0,
      groupSize: 4,
    });
    await rollouts.waitForRun(runId);
    expect((await rollouts.getRunSummary(runId)).groupSize).toBe(4);
    const samples = await grpoSamples({ db: handle.db, bridges: builtInBridges }, runId);
    expect(samples).toHaveLength(8);
    // N = 8, G = 4: two groups, start seeds 0 and 1, policy seeds 0..7.
    expect([...new Set(samples.map((s) => s.group))]).toEqual(['reach-3@start0', 'reach-3@start1']);
    expect(samples.map((s) => s.startSeed)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(samples.map((s) => s.seed)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(samples.map((s) => s.groupSize)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    for (const group of new Set(samples.map((s) => s.group))) {
      const members = samples.filter((s) => s.group === group);
      // Every row of a group starts from the same state: the same first observation.
      expect(new Set(members.map((s) => s.initialObservation)).size).toBe(1);
      expect(members[0]?.initialObservation).toMatch(/^value \d$/);
      // The policy seeds change the policy's choices: rewards differ inside the group.
      expect(new Set(members.map((s) => s.reward)).size).toBeGreaterThan(1);
      const sum = members.reduce((n, s) => n + s.advantage, 0);
      expect(Math.abs(sum)).toBeLessThan(1e-9);
    }
    // The counter env starts at startSeed % 2: the two groups start from different states.
    expect(samples[0]?.initialObservation).toBe('value 0');
    expect(samples[4]?.initialObservation).toBe('value 1');
    // Seed 0 waits 0 times (3 steps), seed 1 once (4 steps), seed 2 twice (5 steps), seed 3 none.
    expect(samples.slice(0, 4).map((s) => s.steps)).toEqual([3, 4, 5, 3]);
    expect(samples[0]?.terms.rSucc).toBe(10);
    expect(samples[0]?.actions).toEqual(['inc {}', 'inc {}', 'inc {}']);
    // Parameters are editable per export: a larger efficiency weight changes rewards, not the sum.
    const edited = await grpoSamples({ db: handle.db, bridges: builtInBridges }, runId, {
      reward: { lambdaEff: 5 },
    });
    expect(edited[0]?.reward).toBeCloseTo(
      (samples[0]?.reward ?? 0) + 4 * (samples[0]?.terms.rEff ?? 0),
      9,
    );
    // The JSONL export carries the first observation and both seeds too.
    const rows = [];
    for await (const e of rollouts.exportRun(runId)) rows.push(e);
    expect(rows.map((r) => [r.seed, r.startSeed, r.initialObservation])).toContainEqual([
      5,
      1,
      'value 1',
    ]);
  });

  it('refuses a group size that does not divide K, in one sentence', async () => {
    await expect(
      rollouts.launchRun({ spec: counterSpec, policy: 'test:inc', k: 6, seed: 0, groupSize: 4 }),
    ).rejects.toThrow(/K = 6\) must be a multiple of the group size \(4\)/);
  });
});
