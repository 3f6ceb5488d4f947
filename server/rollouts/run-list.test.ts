// The runs list through the tRPC router on a real database and real episodes: outcome, filters,
// every sort in both directions with cursor pages, search, lineage and the stored counters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_OUTCOMES, runOutcome } from '../../contracts/outcomes.ts';
import { RUN_SORT_KEYS, type RunListInput } from '../../contracts/run-list.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { callerFor, testServices } from '../testing/services.ts';
import { outcomeWhere } from './run-list.ts';

const household = (task: string) => ({
  version: 1,
  env: { type: 'base', bridge: 'household', task },
});
const THROWS = {
  version: 1,
  env: {
    type: 'contract',
    code: "export function filterAction(a) { throw new Error('hook exploded'); }",
    env: household('eval_seen-002').env,
  },
};
const CHAIN = {
  version: 1,
  env: {
    type: 'chain',
    mode: 'sequential',
    first: household('eval_seen-003').env,
    second: household('eval_seen-004').env,
  },
};

describe('runs.list and runs.byId', () => {
  let handle: TestDb;
  let services: Services;
  let caller: ReturnType<typeof callerFor>;
  const ids: Record<string, string> = {};
  let harness: { harnessId: string; versionId: string };

  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
    caller = callerFor(services);
    const created = await caller.harnesses.create({
      name: 'Arrivals reworded',
      spec: {
        version: 1,
        env: {
          type: 'contract',
          code: "export function filterObservation(o) { return { ...o, text: o.text.replace('You arrive at', 'Now at') }; }",
          env: household('eval_seen-005').env,
        },
      },
    });
    harness = { harnessId: created.harnessId, versionId: created.version.id };
    const launches: [string, Parameters<typeof caller.runs.launch>[0]][] = [
      [
        'toy',
        {
          spec: { version: 1, env: { type: 'base', bridge: 'toy24', task: '1-1-1-8' } },
          policy: 'scripted:toy24-greedy',
          k: 4,
        },
      ],
      ['looper', { spec: household('eval_seen-006'), policy: 'scripted:household-looper', k: 3 }],
      ['errors', { spec: THROWS, policy: 'scripted:household-explorer', k: 3 }],
      ['chain', { spec: CHAIN, policy: 'scripted:household-explorer', k: 1 }],
      [
        'validation',
        {
          spec: (await caller.harnesses.byId({ id: harness.harnessId })).versions[0]?.spec,
          policy: 'scripted:household-explorer',
          k: 2,
          kind: 'validation',
          harnessVersionId: harness.versionId,
        },
      ],
    ];
    for (const [name, input] of launches) ids[name] = (await caller.runs.launch(input)).runId;
    await Promise.all(Object.values(ids).map((id) => services.rollouts.waitForRun(id)));
  }, 120_000);

  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  const list = async (input: RunListInput = {}) => (await caller.runs.list(input)).items;
  const idsOf = async (input: RunListInput) => (await list(input)).map((r) => r.id);

  it('gives a run whose every episode errored the outcome "all errors", not a clean completion', async () => {
    const run = await caller.runs.byId({ id: ids.errors ?? '' });
    expect(run.status).toBe('completed');
    expect(run.metrics.errors).toBe(3);
    expect(run.outcome).toBe('all_errors');
    expect((await caller.runs.byId({ id: ids.toy ?? '' })).outcome).toBe('clean');
    expect(await idsOf({ outcome: 'all_errors' })).toEqual([ids.errors]);
    expect(await idsOf({ outcome: 'clean' })).not.toContain(ids.errors);
  });

  it('classifies the looper failures as invalid-action loops in the run metrics', async () => {
    const run = await caller.runs.byId({ id: ids.looper ?? '' });
    expect(run.metrics.failureDistribution.invalid_action_loop).toBeGreaterThan(0);
  });

  it('filters by bridge, policy, status and task, and searches ids, tasks and harness names', async () => {
    expect(await idsOf({ bridge: 'toy24' })).toEqual([ids.toy]);
    expect((await idsOf({ bridge: 'household' })).sort()).toEqual(
      [ids.looper, ids.errors, ids.chain, ids.validation].sort(),
    );
    expect(await idsOf({ policy: 'scripted:household-looper' })).toEqual([ids.looper]);
    expect(await idsOf({ status: 'running' })).toEqual([]);
    expect(await idsOf({ status: 'completed' })).toHaveLength(5);
    expect(await idsOf({ task: 'eval_seen-006' })).toEqual([ids.looper]);
    expect(await idsOf({ q: 'EVAL_SEEN-003' })).toEqual([ids.chain]);
    expect(await idsOf({ q: (ids.toy ?? '').slice(-6) })).toEqual([ids.toy]);
    expect(await idsOf({ q: 'reworded' })).toEqual([ids.validation]);
    expect(
      await idsOf({ bridge: 'household', policy: 'scripted:household-explorer', outcome: 'clean' }),
    ).toEqual(expect.arrayContaining([ids.chain, ids.validation]));
  });

  it('offers the bridges and policies that have runs as filters', async () => {
    expect(await caller.runs.facets()).toEqual({
      bridges: ['household', 'toy24'],
      policies: [
        'scripted:household-explorer',
        'scripted:household-looper',
        'scripted:toy24-greedy',
      ],
    });
  });

  it('sorts by every column both ways, and cursor pages add up to the whole sorted list', async () => {
    const all = await list({ limit: 100 });
    const value: Record<
      (typeof RUN_SORT_KEYS)[number],
      (r: (typeof all)[number]) => string | number | null
    > = {
      started: (r) => r.createdAt,
      run: (r) => r.id,
      task: (r) => r.task,
      policy: (r) => r.policy,
      status: (r) => r.status,
      success: (r) => r.metrics.successRate,
      steps: (r) => r.metrics.meanSteps,
      failures: (r) => r.metrics.failures,
      errors: (r) => r.metrics.errors,
    };
    for (const sort of RUN_SORT_KEYS) {
      for (const dir of ['asc', 'desc'] as const) {
        const items: typeof all = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof caller.runs.list>> = await caller.runs.list({
            sort,
            dir,
            limit: 2,
            cursor,
          });
          items.push(...page.items);
          cursor = page.nextCursor;
        } while (cursor);
        expect(items.map((r) => r.id).sort(), `${sort} ${dir}`).toEqual(
          all.map((r) => r.id).sort(),
        );
        const values = items.map(value[sort]);
        const present = values.filter((v) => v !== null);
        const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (dir === 'desc') sorted.reverse();
        expect(present, `${sort} ${dir}`).toEqual(sorted);
        // Runs with nothing scored (no rate, no mean) come last either way.
        expect(
          values.slice(present.length).every((v) => v === null),
          `${sort} ${dir}`,
        ).toBe(true);
      }
    }
  });

  it('keeps the stored counters the sorts use equal to the metrics computed from the episodes', async () => {
    const rows = await handle.db.run.findMany({
      select: {
        id: true,
        episodesDone: true,
        episodesSucceeded: true,
        episodesFailed: true,
        episodesErrored: true,
        successRate: true,
        meanSteps: true,
        bridge: true,
        task: true,
      },
    });
    for (const row of rows) {
      const s = await caller.runs.byId({ id: row.id });
      expect(row).toMatchObject({
        episodesDone: s.episodesDone,
        episodesSucceeded: s.metrics.successes,
        episodesFailed: s.metrics.failures,
        episodesErrored: s.metrics.errors,
        successRate: s.metrics.successRate,
        bridge: s.lineage.tasks[0]?.bridge,
        task: s.lineage.tasks[0]?.task,
      });
      if (s.metrics.meanSteps === null) expect(row.meanSteps).toBeNull();
      else expect(row.meanSteps).toBeCloseTo(s.metrics.meanSteps, 10);
    }
  });

  it('names and links the lineage: harness version, and both tasks of a chain', async () => {
    const v = await caller.runs.byId({ id: ids.validation ?? '' });
    expect(v.lineage.harnessVersion).toMatchObject({
      id: harness.versionId,
      version: 1,
      harnessId: harness.harnessId,
      harnessName: 'Arrivals reworded',
    });
    expect(v.lineage.name).toBe('Arrivals reworded v1');
    const [listed] = await list({ q: 'reworded' });
    expect(listed?.lineage.name).toBe('Arrivals reworded v1');
    const chain = await caller.runs.byId({ id: ids.chain ?? '' });
    expect(chain.lineage.tasks).toEqual([
      { bridge: 'household', task: 'eval_seen-003', path: 'env.first' },
      { bridge: 'household', task: 'eval_seen-004', path: 'env.second' },
    ]);
    expect(chain.lineage.name).toBeNull();
  });

  it('filters outcomes on the stored counters exactly as runOutcome decides them', async () => {
    const cases = [
      [0, 0],
      [3, 0],
      [3, 1],
      [3, 3],
      [1, 1],
      [5, 4],
    ] as const;
    const made: { id: string; outcome: string }[] = [];
    for (const [done, errors] of cases) {
      const row = await handle.db.run.create({
        data: {
          policy: 'test:counts',
          spec: household('eval_seen-006'),
          taskIds: ['counts'],
          k: 1,
          seeds: [0],
          maxSteps: 1,
          rewardParams: {},
          episodesTotal: 5,
          episodesDone: done,
          episodesErrored: errors,
        },
        select: { id: true },
      });
      made.push({ id: row.id, outcome: runOutcome({ done, errors }) });
    }
    for (const outcome of RUN_OUTCOMES) {
      const found = await handle.db.run.findMany({
        where: { AND: [{ policy: 'test:counts' }, outcomeWhere(handle.db, outcome)] },
        select: { id: true },
      });
      expect(found.map((r) => r.id).sort(), outcome).toEqual(
        made
          .filter((m) => m.outcome === outcome)
          .map((m) => m.id)
          .sort(),
      );
    }
    await handle.db.run.deleteMany({ where: { policy: 'test:counts' } });
  });

  it('refuses a cursor it did not make', async () => {
    await expect(caller.runs.list({ cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
