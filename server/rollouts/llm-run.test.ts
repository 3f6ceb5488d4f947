// Runs of `openai:` policies through the real rollout service and database, against the fake
// server: auto mode on an endpoint without tool calling, token totals, the server's words in
// episode errors, reasoning kept per step, and launch-time checks of the LLM options.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../bridges/core/types.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { InvalidInputError } from '../errors.ts';
import { type FakeMode, type FakeModel, startFakeModel } from '../policies/testing/fake-openai.ts';
import { callerFor, testServices } from '../testing/services.ts';
import { exportRun } from './reads.ts';

const spec = { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } };

describe('openai runs against an OpenAI-compatible fake', () => {
  let handle: TestDb;
  let services: Services;
  let fake: FakeModel | undefined;
  beforeAll(async () => {
    handle = await createTestDb('pglite');
    services = await testServices(handle);
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  afterAll(async () => {
    await services.close();
    await handle.close();
  });

  async function run(modes: FakeMode[], options: Record<string, Json> = {}, k = 2) {
    fake = await startFakeModel(modes);
    const { runId } = await services.rollouts.launchRun({
      spec,
      policy: 'openai:fake-model',
      k,
      maxSteps: 4,
      // One episode at a time, so which episode finds the fallback is known.
      concurrency: 1,
      policyOptions: { baseUrl: fake.url, retryBaseMs: 5, ...options },
    });
    const summary = await services.rollouts.waitForRun(runId);
    return { runId, summary, episodes: await services.rollouts.allEpisodes(runId) };
  }

  it('an auto run against a server without tool calling completes with valid actions, in ReAct', async () => {
    const { runId, summary, episodes } = await run(['no-tools', 'usage', 'reasoning'], {}, 3);
    expect(summary.status).toBe('completed');
    expect(summary.metrics.errors).toBe(0);
    expect(episodes.map((e) => e.steps)).toEqual([4, 4, 4]);
    const trajectories = [];
    for await (const e of exportRun(handle.db, runId)) trajectories.push(e);
    const steps = trajectories.flatMap((e) => e.trajectory);
    expect(steps).toHaveLength(12);
    expect(steps.every((s) => !s.invalid && s.action.name === 'act')).toBe(true);
    expect(steps.every((s) => s.llm?.mode === 'react')).toBe(true);
    // Reasoning is kept per step (shown collapsed by the trajectory viewer).
    expect(steps[0]?.llm?.reasoning).toMatch(/^The goal names what to find/);
    // The first episode found the reason; the run's later episodes inherit it.
    expect(trajectories[0]?.llm).toMatchObject({
      requested: 'auto',
      mode: 'react',
      switchedAt: 0,
      inherited: false,
      reason: expect.stringContaining('"auto" tool choice requires --enable-auto-tool-choice'),
    });
    expect(trajectories.slice(1).every((e) => e.llm?.inherited)).toBe(true);
    // One refused request in the whole run: the memory of the fallback spares the others.
    expect(fake?.replies.filter((r) => r.status === 400)).toHaveLength(1);

    const report = await callerFor(services).runs.llm({ id: runId });
    expect(report.modes).toEqual([
      {
        requested: 'auto',
        mode: 'react',
        reason: expect.stringContaining('--tool-call-parser'),
        episodes: 3,
      },
    ]);
  });

  it('token totals of steps, episodes and the run equal the sums of the usage the server sent', async () => {
    const { runId, episodes } = await run(['tools', 'usage'], {
      pricePromptPerM: 2,
      priceCompletionPerM: 8,
    });
    const sent = fake?.usageTotals();
    expect(sent?.requests).toBe(8);
    const report = await callerFor(services).runs.llm({ id: runId });
    expect(report.usage).toEqual({
      prompt: sent?.prompt,
      completion: sent?.completion,
      cached: sent?.cached,
      episodes: 2,
    });
    const sum = (k: 'promptTokens' | 'outputTokens' | 'cachedTokens') =>
      episodes.reduce((n, e) => n + (e[k] ?? 0), 0);
    expect([sum('promptTokens'), sum('outputTokens'), sum('cachedTokens')]).toEqual([
      sent?.prompt,
      sent?.completion,
      sent?.cached,
    ]);
    for await (const e of exportRun(handle.db, runId)) {
      const steps = e.trajectory.map((s) => s.llm?.usage);
      expect(steps.every((u) => u !== undefined)).toBe(true);
      expect(steps.reduce((n, u) => n + (u?.prompt ?? 0), 0)).toBe(e.promptTokens);
      expect(e.llm?.byKind.env?.requests).toBe(4);
    }
    expect(report.priceSource).toBe('run');
    expect(report.cost).toBeCloseTo(
      ((sent?.prompt ?? 0) * 2 + (sent?.completion ?? 0) * 8) / 1_000_000,
      12,
    );
    expect(report.modes).toEqual([{ requested: 'auto', mode: 'tools', reason: null, episodes: 2 }]);
  });

  it("puts the server's error body in the episode error: vLLM's shape and OpenAI's", async () => {
    const vllm = await run(['no-tools'], { mode: 'tools', maxRetries: 0 }, 1);
    expect(vllm.summary.metrics.errors).toBe(1);
    expect(vllm.episodes[0]?.errorKind).toBe('infra');
    expect(vllm.episodes[0]?.errorMessage).toBe(
      'PolicyInfraError: openai:fake-model: HTTP 400: "auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    );
    await fake?.close();
    const openai = await run(['error-body'], { maxRetries: 0 }, 1);
    expect(openai.episodes[0]?.errorMessage).toContain(
      "HTTP 400: This model's maximum context length is 4096 tokens",
    );
    expect(openai.episodes[0]?.errorMessage).not.toContain('(no body)');
  });

  it('refuses LLM options it cannot use at launch, one sentence naming the option', async () => {
    const before = await handle.db.run.count();
    const err = await services.rollouts
      .launchRun({ spec, policy: 'openai:fake-model', policyOptions: { mode: 'text' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    expect((err as Error).message).toMatch(/^policyOptions\.mode: /);
    await expect(
      services.rollouts.launchRun({
        spec,
        policy: 'bpe(openai:fake-model)',
        policyOptions: { think: 'sometimes' },
      }),
    ).rejects.toThrow(/policyOptions\.think/);
    expect(await handle.db.run.count()).toBe(before);
  });
});
