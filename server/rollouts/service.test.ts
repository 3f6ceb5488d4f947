import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, type TestDbKind } from '../db/testing.ts';
import { until } from '../testing/processes.ts';
import type { RolloutEngine } from './engine.ts';
import type { RunEventRecord } from './events.ts';
import { EpisodeRecorder } from './recorder.ts';
import type { Rollouts } from './service.ts';
import { counterEngine, counterSpec, testRollouts } from './testing.ts';

describe.each<TestDbKind>(['pglite', 'postgres'])('run service on %s', (kind) => {
  let handle: TestDb;

  let current: Rollouts | undefined;
  const use = (engine: RolloutEngine): Rollouts => {
    current = testRollouts(handle, engine);
    return current;
  };

  beforeAll(async () => {
    handle = await createTestDb(kind);
  });

  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  afterAll(async () => {
    await handle.close();
  });

  it('launches, records every episode once and computes metrics from the store', async () => {
    const rollouts = use(counterEngine());
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:inc',
      k: 6,
      seed: 10,
      queue: 'local',
      concurrency: 2,
    });
    expect(await rollouts.runPlan(runId)).toEqual({ episodesTotal: 6, queue: 'local' });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    expect(summary.episodesDone).toBe(6);
    expect(summary.counts).toEqual({ queued: 0, running: 0, done: 6 });
    expect(summary.metrics.successRate).toBe(1);
    // even seeds start at 0 (3 steps), odd seeds at 1 (2 steps)
    expect(summary.metrics.meanSteps).toBe(2.5);
    const episodes = await rollouts.listEpisodes(runId);
    expect(episodes.items.map((e) => e.seed)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(episodes.items.every((e) => e.attempt === 1 && e.outcome === 'success')).toBe(true);
    const first = episodes.items[0];
    if (!first) throw new Error('no episode');
    const page1 = await rollouts.getSteps(first.id, { limit: 2 });
    expect(page1.items.map((s) => s.index)).toEqual([0, 1]);
    expect(page1.nextCursor).toBe(1);
    const page2 = await rollouts.getSteps(first.id, { cursor: 1, limit: 2 });
    expect(page2.items.map((s) => s.index)).toEqual([2]);
    expect(page2.nextCursor).toBeNull();
    expect(page2.items[0]?.observation.text).toBe('value 3');
    expect(page2.items[0]?.executedAction).toEqual({ name: 'inc', args: {} });
    const exported = [];
    for await (const e of rollouts.exportRun(runId)) exported.push(e);
    expect(exported.map((e) => e.trajectory.length)).toEqual([3, 2, 3, 2, 3, 2]);
    const runs = await rollouts.listRuns();
    expect(runs.items.some((r) => r.id === runId)).toBe(true);
  });

  it('keeps infra errors out of the success rate and never scores them', async () => {
    const rollouts = use(counterEngine());
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:infra',
      k: 2,
      seed: 0,
      queue: 'local',
    });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.metrics).toMatchObject({
      errors: 2,
      failures: 0,
      successes: 0,
      successRate: null,
    });
    expect(summary.metrics.errorDistribution.infra).toBe(2);
    const { items } = await rollouts.listEpisodes(runId, { outcome: 'error' });
    expect(items).toHaveLength(2);
    for (const e of items) {
      expect(e.reward).toBeNull();
      expect(e.failureCategory).toBeNull();
      expect(e.errorKind).toBe('infra');
      expect(e.errorMessage).toContain('PolicyInfraError: endpoint unreachable');
    }
  });

  it('gives the same results for the same seeds', async () => {
    const rollouts = use(counterEngine());
    const a = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:giveup',
      k: 4,
      seed: 3,
      queue: 'local',
    });
    const b = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:giveup',
      k: 4,
      seed: 3,
      queue: 'local',
    });
    await Promise.all([rollouts.waitForRun(a.runId), rollouts.waitForRun(b.runId)]);
    const pick = async (runId: string) =>
      (await rollouts.listEpisodes(runId)).items.map((e) => [
        e.seed,
        e.outcome,
        e.failureCategory,
        e.steps,
        e.reward,
      ]);
    expect(await pick(a.runId)).toEqual(await pick(b.runId));
  });

  it('streams events gap-free and resumes from a cursor', async () => {
    const rollouts = use(counterEngine({ delayMs: 5 }));
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:inc',
      k: 5,
      queue: 'local',
    });
    const live: RunEventRecord[] = [];
    for await (const e of rollouts.events.subscribe(runId, undefined, { untilCompleted: true }))
      live.push(e);
    const stored = await rollouts.events.list(runId);
    expect(live.map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(live.filter((e) => e.type === 'episode_ended')).toHaveLength(5);
    expect(live.filter((e) => e.type === 'episode_started')).toHaveLength(5);
    expect(live[0]?.type).toBe('run_started');
    expect(live.at(-1)?.type).toBe('run_completed');
    const ids = live.map((e) => BigInt(e.id));
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    const mid = live[4];
    if (!mid) throw new Error('too few events');
    const resumed: string[] = [];
    for await (const e of rollouts.events.subscribe(runId, mid.id, { untilCompleted: true }))
      resumed.push(e.id);
    expect(resumed).toEqual(live.slice(5).map((e) => e.id));
  });

  it('records a stale attempt never, and replaces its steps (compare-and-set)', async () => {
    const rollouts = use(counterEngine());
    const db = handle.db;
    const run = await db.run.create({
      data: {
        policy: 'test:inc',
        spec: counterSpec,
        taskIds: ['reach-3'],
        k: 2,
        seeds: [0, 1],
        maxSteps: 50,
        rewardParams: {},
        episodesTotal: 2,
      },
    });
    await db.episode.createMany({
      data: [0, 1].map((seed) => ({ runId: run.id, taskId: 'reach-3', seed, ordinal: seed })),
    });
    // a process claims both and dies after writing a partial, stale step
    const dead = new EpisodeRecorder('dead', { db, events: rollouts.events });
    const claims = await Promise.all(
      (await db.episode.findMany({ where: { runId: run.id } })).map((e) =>
        dead.claim({ id: e.id, runId: run.id }),
      ),
    );
    expect(claims.map((c) => c?.attempt)).toEqual([1, 1]);
    const c0 = claims[0];
    if (!c0) throw new Error('claim failed');
    await db.step.create({
      data: {
        episodeId: c0.id,
        index: 7,
        attempt: 1,
        action: {},
        observation: 'stale',
        reward: 0,
        terminated: false,
        truncated: false,
        changes: [],
        info: {},
      },
    });
    expect(await rollouts.resumeUnfinishedRuns({ queue: 'local' })).toContain(run.id);
    const summary = await rollouts.waitForRun(run.id);
    expect(summary.episodesDone).toBe(2);
    expect(summary.metrics.successes).toBe(2);
    const steps = await rollouts.getSteps(c0.id);
    expect(steps.items.map((s) => s.index)).toEqual([0, 1, 2]);
    const episodes = await rollouts.listEpisodes(run.id);
    expect(episodes.items.map((e) => e.attempt)).toEqual([2, 2]);
    // the dead attempt's late result is discarded and counts nothing
    const late = await dead.record({
      id: c0.id,
      runId: run.id,
      attempt: 1,
      result: {
        outcome: 'failure',
        failureCategory: 'gave_up',
        steps: 0,
        invalidActions: 0,
        envReward: 0,
        durationMs: 1,
        trajectory: [],
        taskId: 'reach-3',
        seed: 0,
      },
    });
    expect(late).toBe(false);
    const after = await rollouts.getRunSummary(run.id);
    expect(after.episodesDone).toBe(2);
    expect(after.metrics.successes).toBe(2);
    const ended = (await rollouts.events.list(run.id)).filter((e) => e.type === 'episode_ended');
    expect(ended).toHaveLength(2);
  });

  it('stops a cancelled run and ends its waiters', async () => {
    const rollouts = use(counterEngine({ delayMs: 30 }));
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:inc',
      k: 30,
      queue: 'local',
      concurrency: 1,
    });
    for await (const e of rollouts.events.subscribe(runId)) if (e.type === 'episode_ended') break;
    await rollouts.cancelRun(runId);
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('cancelled');
    await rollouts.close();
    const after = await rollouts.getRunSummary(runId);
    expect(after.status).toBe('cancelled');
    expect(after.episodesDone).toBeLessThan(30);
    expect(after.counts.queued).toBeGreaterThan(0);
  });

  /**
   * A counter engine whose episodes after the first `fast` wait at a gate: the run's two slots
   * stay busy while the queue claims ahead. The first `fast` take `ms` each. Resolves with the run's
   * counts once they hold still.
   */
  async function claimedWhileBlocked(fast: number, ms = 0) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const counter = counterEngine();
    let started = 0;
    const gated: RolloutEngine = {
      ...counter,
      executor: (size) => {
        const inner = counter.executor(size);
        return {
          ...inner,
          run: async (input, options) => {
            started += 1;
            if (started > fast) await gate;
            else if (ms > 0) await new Promise((r) => setTimeout(r, ms));
            return inner.run(input, options);
          },
        };
      },
    };
    const rollouts = use(gated);
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:inc',
      k: 40,
      queue: 'local',
      concurrency: 2,
    });
    let last = '';
    const counts = await until(
      'the claims to settle',
      async () => {
        await new Promise((r) => setTimeout(r, 100));
        const now = (await rollouts.getRunSummary(runId)).counts;
        const same = JSON.stringify(now) === last && started > fast;
        last = JSON.stringify(now);
        return same ? now : undefined;
      },
      10_000,
    );
    const blocked = started - fast;
    open();
    expect((await rollouts.waitForRun(runId)).episodesDone).toBe(40);
    return { counts, blocked };
  }

  it('claims no episode ahead until it knows how long they take: running is what runs', async () => {
    expect(await claimedWhileBlocked(0)).toEqual({
      counts: { queued: 38, running: 2, done: 0 },
      blocked: 2,
    });
  });

  it('claims no episode ahead when its episodes take half a second or more', async () => {
    expect(await claimedWhileBlocked(2, 600)).toEqual({
      counts: { queued: 36, running: 2, done: 2 },
      blocked: 2,
    });
  });

  it('claims 12 episodes ahead of two slots when its episodes take milliseconds', async () => {
    expect(await claimedWhileBlocked(10)).toEqual({
      counts: { queued: 16, running: 14, done: 10 },
      blocked: 2,
    });
  });

  it('says which run it does not know', async () => {
    const rollouts = use(counterEngine());
    await expect(rollouts.runPlan('no-such-run')).rejects.toThrow("run 'no-such-run' not found");
  });

  it('refuses bad input before writing anything', async () => {
    const rollouts = use(counterEngine());
    await expect(rollouts.launchRun({ spec: { version: 2 }, policy: 'test:inc' })).rejects.toThrow(
      /invalid spec/,
    );
    await expect(rollouts.launchRun({ spec: counterSpec, policy: 'nope' })).rejects.toThrow(
      /not found/,
    );
    await expect(
      rollouts.launchRun({ spec: counterSpec, policy: 'test:inc', seeds: [1, 1] }),
    ).rejects.toThrow(/duplicate/);
  });

  it('launches a named run once, however often (or however concurrently) it is launched', async () => {
    const rollouts = use(counterEngine());
    const input = { spec: counterSpec, policy: 'test:inc', k: 3, queue: 'local' } as const;
    const runId = `named${kind}run`;
    const launches = await Promise.all([
      rollouts.launchRun(input, { runId }),
      rollouts.launchRun(input, { runId }),
    ]);
    expect(launches).toEqual([{ runId }, { runId }]);
    expect((await rollouts.waitForRun(runId)).episodesDone).toBe(3);
    expect(await rollouts.launchRun(input, { runId })).toEqual({ runId });
    expect(await handle.db.run.count({ where: { id: runId } })).toBe(1);
    expect(await handle.db.episode.count({ where: { runId } })).toBe(3);
    const ended = (await rollouts.events.list(runId)).filter((e) => e.type === 'episode_ended');
    expect(ended).toHaveLength(3);
  });
});
