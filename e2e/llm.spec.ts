// An LLM agent on an endpoint without tool calling: launch openai:fake-model from the task page
// against the fake OpenAI-compatible server (a vLLM without a tool-call parser: it refuses tools,
// answers ReAct text with reasoning_content and usage). Mode auto falls back to ReAct; the run
// page shows the tokens the server reported, the cost at the price typed in, and why ReAct; the
// episode page shows the episode's tokens and each step's reply with its reasoning collapsed.
import { expect, type Page, test } from '@playwright/test';
import { tokens, usd } from '../components/llm/format.ts';
import { costOf } from '../contracts/llm.ts';
import { FAKE_OPENAI_URL } from './fake-openai.ts';
import { snap, trpcQuery, waitForRun } from './helpers.ts';

interface Usage {
  prompt: number;
  completion: number;
  cached: number;
  requests: number;
}

async function fakeUsage(page: Page): Promise<Usage> {
  const res = await page.request.get(`${FAKE_OPENAI_URL}/fake/usage`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Usage;
}

test('an openai: run on an endpoint without tool calling: ReAct, tokens and cost on screen', async ({
  page,
}) => {
  const before = await fakeUsage(page);
  await page.goto('/tasks/household/eval_seen-001');
  await page.getByTestId('launch-policy').selectOption('openai:fake-model');
  await expect(page.getByTestId('launch-llm')).toBeVisible();
  await expect(page.getByTestId('launch-llm-mode')).toHaveValue('auto');
  await page.getByTestId('launch-pricePrompt').fill('2');
  await page.getByTestId('launch-priceCompletion').fill('8');
  await page.getByTestId('launch-k').fill('2');
  await page.getByTestId('launch-max-steps').fill('5');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop() ?? '';

  const run = await waitForRun(page, runId);
  expect(run.status).toBe('completed');
  expect(run.metrics.errors).toBe(0);
  const after = await fakeUsage(page);
  const sent = {
    prompt: after.prompt - before.prompt,
    completion: after.completion - before.completion,
    cached: after.cached - before.cached,
  };
  expect(after.requests - before.requests).toBe(10);

  // The run page: the tokens the server reported, the cost at the typed price, and why ReAct.
  const card = page.getByTestId('run-llm');
  await expect(card.getByTestId('run-tokens-prompt')).toHaveText(tokens(sent.prompt));
  await expect(card.getByTestId('run-tokens-completion')).toHaveText(tokens(sent.completion));
  await expect(card.getByTestId('run-tokens-cached')).toHaveText(`${tokens(sent.cached)} cached`);
  await expect(card.getByTestId('run-cost')).toHaveText(
    usd(costOf(sent, { prompt: 2, completion: 8 })),
  );
  await expect(card.getByTestId('run-llm-mode')).toHaveText('mode react');
  await expect(card.getByTestId('run-llm-why')).toContainText(
    'Mode auto fell back to ReAct text for all 2 episodes: the endpoint refused tool calling (HTTP 400: "auto" tool choice requires --enable-auto-tool-choice',
  );
  await expect(page.getByTestId('episode-tokens-cell')).toHaveCount(2);
  await snap(page, 'llm-run');

  // The episode page: its tokens, and each step's reply with the reasoning collapsed.
  const episodes = await trpcQuery<{
    items: { id: string; promptTokens: number; outputTokens: number; cachedTokens: number }[];
  }>(page, 'runs.episodes', { runId });
  const first = episodes.items[0];
  if (!first) throw new Error('no episode');
  await page.goto(`/runs/${runId}/episodes/${first.id}?step=1`);
  await expect(page.getByTestId('episode-tokens')).toContainText(
    `${tokens(first.promptTokens)} prompt`,
  );
  await expect(page.getByTestId('episode-llm-mode')).toContainText('mode react');
  const step = page.getByTestId('step-llm');
  await expect(step.getByTestId('step-reply')).toContainText('Action: go to ');
  await expect(step.getByTestId('step-tokens')).toContainText('prompt');
  const reasoning = step.getByTestId('step-reasoning');
  await expect(reasoning.locator('pre')).toBeHidden();
  await reasoning.locator('summary').click();
  await expect(reasoning.locator('pre')).toContainText('The goal names what to find.');
  await snap(page, 'llm-episode');
});
