// The production path: real harness engine, real scripted policy, episodes in IsolatedPool worker
// threads. Hook failures end episodes as harness errors, never as failures, and the run completes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { defaultEngine } from './default-engine.ts';
import type { Rollouts } from './service.ts';
import { testRollouts } from './testing.ts';

let db: TestDb;
let rollouts: Rollouts;

beforeAll(async () => {
  db = await createTestDb('pglite');
  rollouts = testRollouts(db, defaultEngine(builtInBridges));
});

afterEach(async () => {
  await rollouts.close();
});

afterAll(async () => {
  await db.close();
});

const withHook = (code: string): HarnessSpec => ({
  version: 1,
  env: {
    type: 'contract',
    code,
    env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
  },
});

describe('rollouts on the isolated worker pool', () => {
  it('records hook failures as harness errors, apart from failures', async () => {
    // the first agent step throws inside the sandbox; the second kind of hook never returns
    const throwing = withHook('function filterAction(action) { throw new Error("rule broke"); }');
    const { runId } = await rollouts.launchRun({
      spec: throwing,
      policy: 'scripted:household-explorer',
      k: 2,
      queue: 'local',
      concurrency: 1,
    });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    expect(summary.metrics).toMatchObject({
      successes: 0,
      failures: 0,
      errors: 2,
      successRate: null,
    });
    expect(summary.metrics.errorDistribution.harness).toBe(2);
    const { items } = await rollouts.listEpisodes(runId);
    for (const e of items) {
      expect(e.outcome).toBe('error');
      expect(e.errorKind).toBe('harness');
      expect(e.reward).toBeNull();
      expect(e.errorMessage).toMatch(/HarnessCodeError: .*rule broke/);
    }
  }, 60_000);

  it('runs a bare household task to the verifier and persists each trajectory', async () => {
    const spec: HarnessSpec = {
      version: 1,
      env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
    };
    const { runId } = await rollouts.launchRun({
      spec,
      policy: 'scripted:household-explorer',
      k: 3,
      seed: 5,
      queue: 'local',
      concurrency: 2,
    });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.episodesDone).toBe(3);
    expect(summary.metrics.errors).toBe(0);
    const { items } = await rollouts.listEpisodes(runId);
    for (const e of items) {
      expect(e.outcome === 'success' || e.outcome === 'failure').toBe(true);
      const steps = await rollouts.getSteps(e.id, { limit: 500 });
      expect(steps.items).toHaveLength(e.steps);
      expect((e.evaluation as { success: boolean }).success).toBe(e.outcome === 'success');
      expect(e.costReward).toMatchObject({ rSucc: e.outcome === 'success' ? 10 : 0 });
    }
  }, 60_000);
});
