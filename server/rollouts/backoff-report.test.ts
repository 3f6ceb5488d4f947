// A rate limit reaches the run: while an endpoint's gate is closed, the run's back-off (endpoint,
// wait, retries) is readable from the rollout service; when the endpoint answers again it is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { type ChatRequestBody, startFakeOpenAI } from '../policies/testing/fake-openai.ts';
import { REDIS_URL } from '../testing/processes.ts';
import { defaultEngine } from './default-engine.ts';
import { RunEvents } from './events.ts';
import { Rollouts } from './service.ts';

const spec: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
};

let db: TestDb;
let rollouts: Rollouts;
beforeAll(async () => {
  db = await createTestDb('pglite');
  rollouts = new Rollouts({
    db: db.db,
    dbKind: db.kind,
    engine: defaultEngine(builtInBridges),
    events: new RunEvents(db.db),
    concurrency: 2,
  });
});
afterAll(async () => {
  await rollouts.close();
  await db.close();
});

describe('rate-limit back-off on the run', () => {
  it('shows while the endpoint is rate limited and goes when it answers again', async () => {
    // Every request after the first 429 is held until the test has seen the back-off: the
    // gate's probe is one of them, so the back-off lasts until then, however slow the machine.
    let release!: () => void;
    const seenIt = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = await startFakeOpenAI(async (request, index) => {
      if (index === 0) return { status: 429, headers: { 'retry-after-ms': '50' } };
      await seenIt;
      const name = (request.body as ChatRequestBody).tools?.[0]?.function.name ?? 'act';
      return { toolCalls: [{ name, arguments: { command: 'look' } }] };
    });
    try {
      const { runId } = await rollouts.launchRun({
        spec,
        policy: 'openai:fake-model',
        k: 2,
        maxSteps: 2,
        policyOptions: { baseUrl: fake.url },
      });
      let seen = await rollouts.backoffs(runId);
      while (seen.length === 0) {
        await new Promise((r) => setTimeout(r, 10));
        seen = await rollouts.backoffs(runId);
      }
      expect(seen).toEqual([
        {
          endpoint: `${fake.url} fake-model`,
          leftMs: expect.any(Number),
          // The larger of Retry-After (50 ms) and the gate's own first back-off (retryBaseMs 500).
          waitMs: 500,
          retries: 1,
        },
      ]);
      release();
      const summary = await rollouts.waitForRun(runId);
      expect(summary.metrics.errors).toBe(0);
      expect(await rollouts.backoffs(runId)).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('reaches the studio from a worker process over Redis, and its end too', async () => {
    // Two event buses on one Redis: a worker's (publishes) and the studio's (reads).
    const worker = new RunEvents(db.db, REDIS_URL);
    const studio = new RunEvents(db.db, REDIS_URL);
    try {
      expect(await studio.backoffs('run-x')).toEqual([]); // subscribes
      const at = Date.now();
      const backoff = { runId: 'run-x', endpoint: 'e m', until: at + 4000, waitMs: 4000, at };
      worker.publishBackoff({ ...backoff, retries: 12 });
      let seen = await studio.backoffs('run-x');
      while (seen.length === 0) {
        await new Promise((r) => setTimeout(r, 10));
        seen = await studio.backoffs('run-x');
      }
      expect(seen).toEqual([{ ...backoff, retries: 12 }]);
      worker.publishBackoff({ ...backoff, until: 0, waitMs: 0, retries: 0, at: at + 1 });
      while (seen.length > 0) {
        await new Promise((r) => setTimeout(r, 10));
        seen = await studio.backoffs('run-x');
      }
      expect(seen).toEqual([]);
    } finally {
      await worker.close();
      await studio.close();
    }
  });
});
