// Model-bound episodes (an LLM policy on a stack without hook code) run on the event loop, so a run
// keeps far more of them in flight than the pool has threads; a cancel stops them at once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtInBridges } from '../../bridges/index.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import {
  type ChatRequestBody,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../policies/testing/fake-openai.ts';
import { defaultEngine } from './default-engine.ts';
import { RunEvents } from './events.ts';
import { modelBound, singleEpisodeOnEventLoop } from './model-bound.ts';
import { Rollouts } from './service.ts';

const base: HarnessSpec = {
  version: 1,
  env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
};
const contract: HarnessSpec = {
  version: 1,
  env: { type: 'contract', code: 'export function filterAction(a) { return a; }', env: base.env },
} as HarnessSpec;

/** A tool call to the request's first tool. */
function look(body: unknown) {
  const name = (body as ChatRequestBody).tools?.[0]?.function.name ?? 'act';
  return { toolCalls: [{ name, arguments: { command: 'look' } }] };
}

describe('model-bound episodes', () => {
  it('are those of an openai policy on a stack without hook code', () => {
    expect(modelBound({ spec: base, policyId: 'openai:any-model' })).toBe(true);
    expect(modelBound({ spec: contract, policyId: 'openai:any-model' })).toBe(false);
    expect(modelBound({ spec: base, policyId: 'scripted:household-explorer' })).toBe(false);
    expect(modelBound({ spec: base, policyId: 'no-such-policy' })).toBe(false);
  });

  it('leave the thread to a run of one scripted episode without hook code, and only to it', () => {
    const scripted = 'scripted:household-explorer';
    expect(singleEpisodeOnEventLoop({ spec: base, policyId: scripted, episodes: 1 })).toBe(true);
    expect(singleEpisodeOnEventLoop({ spec: base, policyId: scripted, episodes: 2 })).toBe(false);
    expect(singleEpisodeOnEventLoop({ spec: contract, policyId: scripted, episodes: 1 })).toBe(
      false,
    );
    // Model-bound episodes have their own rule; an unknown policy fails at validation.
    expect(
      singleEpisodeOnEventLoop({ spec: base, policyId: 'openai:any-model', episodes: 1 }),
    ).toBe(false);
    expect(singleEpisodeOnEventLoop({ spec: base, policyId: 'no-such', episodes: 1 })).toBe(false);
  });

  let db: TestDb;
  let rollouts: Rollouts;
  let fake: FakeOpenAI | undefined;
  beforeAll(async () => {
    db = await createTestDb('pglite');
    rollouts = new Rollouts({
      db: db.db,
      dbKind: db.kind,
      engine: defaultEngine(builtInBridges),
      events: new RunEvents(db.db),
      concurrency: 2,
      maxConcurrency: 512,
      // Four threads: a run of 40 in flight is only possible off the pool.
      maxWorkers: 4,
    });
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  afterAll(async () => {
    await rollouts.close();
    await db.close();
  });

  it('keep a run of 40 in flight with 4 pool threads: the model sees 40 requests at once', async () => {
    const inFlight = 40;
    let arrived = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every first request is held until 40 have arrived: 40 episodes must be waiting at once.
    fake = await startFakeOpenAI(async (request) => {
      arrived += 1;
      if (arrived === inFlight) release();
      if (arrived <= inFlight) await all;
      return look(request.body);
    });
    const { runId } = await rollouts.launchRun({
      spec: base,
      policy: 'openai:fake-model',
      k: inFlight,
      maxSteps: 2,
      concurrency: inFlight,
      policyOptions: { baseUrl: fake.url },
    });
    const summary = await rollouts.waitForRun(runId);
    expect(summary.status).toBe('completed');
    expect(summary.episodesDone).toBe(inFlight);
    expect(summary.metrics.errors).toBe(0);
    expect(fake.chatRequests()).toHaveLength(inFlight * 2);
  });

  it('a cancel stops episodes waiting on the model at once and records none of them', async () => {
    let arrived = 0;
    fake = await startFakeOpenAI(async () => {
      arrived += 1;
      return new Promise(() => undefined); // the model never answers
    });
    const { runId } = await rollouts.launchRun({
      spec: base,
      policy: 'openai:fake-model',
      k: 10,
      maxSteps: 2,
      concurrency: 10,
      policyOptions: { baseUrl: fake.url },
    });
    while (arrived < 10) await new Promise((r) => setTimeout(r, 10));
    await rollouts.cancelRun(runId);
    const episodes = await db.db.episode.findMany({ where: { runId } });
    expect(episodes.every((e) => e.status === 'queued')).toBe(true);
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('cancelled');
  });
});
