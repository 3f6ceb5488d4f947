// LLM runs at high concurrency: the launch form's "Episodes at once" reaches the run, and a model
// endpoint that rate-limits (the fake answers 429 with Retry-After: 2 for the model `rate-limited`)
// shows on the run page as one back-off for the endpoint, its wait and its retries, while it lasts;
// the episodes it holds up are claimed only as many as the run's slots.
import { expect, type Page, test } from '@playwright/test';
import { contrastViolations } from './axe.ts';
import { FAKE_OPENAI_URL, FAKE_RATE_LIMITED_MODEL } from './fake-openai.ts';
import { launchRun, snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

/** A household run of an LLM policy whose endpoint answers 429 until it is cancelled. */
function launchRateLimited(page: Page, k: number, concurrency: number): Promise<string> {
  return launchRun(page, {
    spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
    policy: `openai:${FAKE_RATE_LIMITED_MODEL}`,
    k,
    maxSteps: 2,
    concurrency,
  });
}

/** Readable by a room: at projector width, in both themes (axe contrast), with screenshots. */
async function readableAt1920(page: Page, testId: string): Promise<void> {
  await page.setViewportSize({ width: 1920, height: 1080 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveClass(new RegExp(scheme));
    expect(await contrastViolations(page, `[data-testid="${testId}"]`)).toEqual([]);
    await snap(page, `${testId}-1920-${scheme}`);
  }
}

test('the launch form runs an LLM policy with the episodes at once it was given', async ({
  page,
}) => {
  await page.goto('/tasks/household/eval_seen-001');
  await page.getByTestId('launch-policy').selectOption('openai:fake-model');
  await page.getByTestId('launch-k').fill('6');
  await page.getByTestId('launch-max-steps').fill('2');
  await page.getByTestId('launch-concurrency').fill('6');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('run-concurrency')).toHaveText('· 6 at once');
  const run = await waitForRun(page, runId);
  expect(run.status).toBe('completed');
  expect(run.metrics.errors).toBe(0);

  // Above the schema's bound, the form says so before anything is sent.
  await page.goto('/tasks/household/eval_seen-001');
  await page.getByTestId('launch-concurrency').fill('5000');
  await expect(page.getByTestId('launch-concurrency-problem')).toBeVisible();
});

test('a rate-limited endpoint shows its back-off on the run page while it lasts', async ({
  page,
}) => {
  const runId = await launchRateLimited(page, 4, 4);
  await page.goto(`/runs/${runId}`);
  const backoff = page.getByTestId('run-backoff');
  const endpoint = `Rate limited by ${FAKE_OPENAI_URL} ${FAKE_RATE_LIMITED_MODEL}:`;
  await expect(backoff).toContainText(endpoint, { timeout: 20_000 });
  await expect(backoff).toContainText(/waiting \d+ s|retrying now/);
  // One line for the endpoint, whatever the number of episodes waiting on it.
  await expect(backoff.getByText(endpoint)).toHaveCount(1);
  // The gate lets one probe through per wait: the retries go on growing.
  await expect(backoff).toContainText(/([2-9]|\d{2,}) retries so far/, { timeout: 30_000 });
  await readableAt1920(page, 'run-backoff');

  await trpcMutation(page, 'runs.cancel', { id: runId });
  await expect(page.getByTestId('run-backoff')).toHaveCount(0);
});

test('a run of slow model episodes has claimed only the episodes its slots hold', async ({
  page,
}) => {
  // Episodes held up by the endpoint's back-off last seconds: none is claimed ahead of a slot.
  const runId = await launchRateLimited(page, 8, 2);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-backoff')).toBeVisible({ timeout: 20_000 });
  // The progress card says how many episodes workers hold and how many wait.
  for (let look = 0; look < 2; look++) {
    if (look > 0) await page.reload();
    await expect(page.getByTestId('run-in-flight')).toHaveText('2 claimed · 6 queued');
  }
  const run = await trpcQuery<{ counts: { queued: number; running: number; done: number } }>(
    page,
    'runs.byId',
    { id: runId },
  );
  expect(run.counts).toEqual({ queued: 6, running: 2, done: 0 });
  await snap(page, 'run-in-flight-1440');
  await readableAt1920(page, 'run-in-flight');
  await trpcMutation(page, 'runs.cancel', { id: runId });
  await expect(page.getByTestId('run-in-flight')).toHaveCount(0);
});
