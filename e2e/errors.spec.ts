// Errors speak to people: a refused value is a sentence next to its field (never zod's JSON), the
// launch forms check with the server's schema as you type, a URL that names nothing answers 404 with
// a not-found page at once, and every page has a favicon.
import { expect, test } from '@playwright/test';
import { base, launchRun, snap, waitForRun } from './helpers.ts';

test('the rig form says a reversed band in one sentence, not a JSON dump', async ({ page }) => {
  await page.goto('/tasks/household/train-0001');
  const form = page.getByTestId('launch-rig');
  await form.getByTestId('rig-band-low').fill('0.9');
  await form.getByTestId('rig-band-high').fill('0.1');
  await expect(form.getByTestId('rig-band-low-problem')).toHaveText(
    'The low end must not be above the high end.',
  );
  await expect(form.getByTestId('rig-launch')).toBeDisabled();
  await expect(page.locator('body')).not.toContainText('"code"');
  await form.getByTestId('rig-k').fill('1000000');
  await expect(form.getByTestId('rig-k-problem')).toHaveText('Must be at most 100.');
  await expect(form).toContainText('1 … 100');
  await snap(page, 'errors-rig-band');

  await form.getByTestId('rig-band-low').fill('0.3');
  await form.getByTestId('rig-band-high').fill('0.6');
  await form.getByTestId('rig-k').fill('5');
  await expect(form.getByTestId('rig-band-low-problem')).toHaveCount(0);
  await expect(form.getByTestId('rig-launch')).toBeEnabled();
});

test('the launch form checks K, the first seed and max steps with the server schema', async ({
  page,
}) => {
  await page.goto('/tasks/toy24/1-1-1-12');
  const form = page.getByTestId('launch-form');
  await expect(form.getByTestId('launch-policy')).not.toHaveValue('');
  // The help says the range the check uses.
  await expect(form).toContainText('1 … 100,000');

  await form.getByTestId('launch-k').fill('1000000');
  await expect(form.getByTestId('launch-k-problem')).toHaveText('Must be at most 100,000.');
  await expect(form.getByTestId('launch-run')).toBeDisabled();
  await form.getByTestId('launch-k').fill('8');

  await form.getByTestId('launch-max-steps').fill('100001');
  await expect(form.getByTestId('launch-max-steps-problem')).toHaveText('Must be at most 100,000.');
  await form.getByTestId('launch-max-steps').fill('');
  await expect(form.getByTestId('launch-max-steps-problem')).toHaveText('Must be a number.');
  await form.getByTestId('launch-max-steps').fill('20');
  await expect(form.getByTestId('launch-max-steps-problem')).toHaveCount(0);

  // A negative first seed is a seed: the form says which seeds the run plays.
  await form.getByTestId('launch-seed').fill('-5');
  await expect(form).toContainText('Seeds -5 … 2, one episode each.');
  await form.getByTestId('launch-seed').fill('2147483647');
  await expect(form.getByTestId('launch-seed-problem')).toContainText(
    'The last seed (seed + K − 1) must be at most 2,147,483,647.',
  );
  await snap(page, 'errors-launch-form');
  await form.getByTestId('launch-seed').fill('0');
  await expect(form.getByTestId('launch-run')).toBeEnabled();
});

test('URLs that name nothing answer 404 with the not-found page at once', async ({ page }) => {
  const runId = await launchRun(page, {
    spec: base('toy24', '1-1-1-12'),
    policy: 'scripted:toy24-exact',
    k: 1,
    maxSteps: 5,
  });
  await waitForRun(page, runId);
  for (const path of [
    '/runs/no-such-run',
    `/runs/${runId}/episodes/no-such-episode`,
    '/tasks/household/nope',
    '/tasks/no-such-bridge/x',
    '/harnesses/no-such-harness',
    '/harnesses/no-such-harness/review',
    '/rigs/no-such-rig',
    '/skills/no-such-bank',
    '/no/such/page',
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    // At once: the server's first answer carries the not-found page; no client fetch finds out later.
    expect(await res?.text(), path).toContain('Nothing exists at this address');
    await expect(page.getByTestId('not-found'), path).toContainText('Not found');
    await expect(page.getByTestId('new-harness')).toHaveCount(0);
    await expect(page.getByTestId('step-list')).toHaveCount(0);
  }
  await snap(page, 'errors-not-found');
  // What exists still opens.
  expect((await page.goto(`/runs/${runId}`))?.status()).toBe(200);
  expect((await page.goto('/tasks/toy24/1-1-1-12'))?.status()).toBe(200);
});

test('every page has a favicon', async ({ page }) => {
  const res = await page.request.get('/favicon.ico');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/image/);
  expect((await res.body()).length).toBeGreaterThan(100);
});
