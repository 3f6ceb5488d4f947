// `harness rollout` of an openai: policy with --policy-option, against the fake server: tokens,
// cost and mode in the report, tokens per step and episode in the export.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, config } from '../../config.ts';
import { type FakeModel, startFakeModel } from '../../policies/testing/fake-openai.ts';
import { runCli } from '../testing.ts';

let dir: string;
let cfg: Config;
let fake: FakeModel;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-rollout-llm-'));
  cfg = { ...config(), DATA_DIR: dir, REDIS_URL: undefined, DATABASE_URL: undefined };
  fake = await startFakeModel(['no-tools', 'usage']);
});

afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCli(argv, { config: cfg });

describe('harness rollout --policy-option', () => {
  it('reports tokens, a cost estimate and the mode; export carries tokens per step', async () => {
    const r = await cli(
      'rollout',
      '--spec',
      'household:eval_seen-002',
      '--policy',
      'openai:fake-model',
      '--policy-option',
      `baseUrl=${fake.url}`,
      '--policy-option',
      'pricePromptPerM=1',
      '--policy-option',
      'priceCompletionPerM=4',
      '--max-steps',
      '3',
      '--json',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    const sent = fake.usageTotals();
    expect(out.llm.tokens).toEqual({
      prompt: sent.prompt,
      completion: sent.completion,
      cached: sent.cached,
    });
    expect(out.llm.cost).toBeCloseTo((sent.prompt * 1 + sent.completion * 4) / 1e6, 12);
    expect(out.llm.mode).toMatch(
      /^Mode auto fell back to ReAct text for its episode: the endpoint refused tool calling \(HTTP 400: "auto" tool choice requires/,
    );
    expect(out.episodes[0].tokens.prompt).toBe(sent.prompt);

    const exported = await cli('export', '--run', out.runId);
    const episode = JSON.parse(exported.out.trim().split('\n')[0] ?? '{}');
    expect(episode.promptTokens).toBe(sent.prompt);
    expect(episode.llm.mode).toBe('react');
    expect(episode.trajectory).toHaveLength(3);
    expect(episode.trajectory[0].llm.usage.requests).toBe(1);
  });

  it('refuses a malformed --policy-option and an option the policy cannot use', async () => {
    const base = ['rollout', '--spec', 'household:eval_seen-002', '--policy', 'openai:m'];
    const bad = await cli(...base, '--policy-option', 'react');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("harness: --policy-option must look like key=value, got 'react'\n");
    const unknown = await cli(...base, '--policy-option', 'mode=text');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^harness: policyOptions\.mode: /);
  });
});
