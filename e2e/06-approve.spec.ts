// Journey 6: a candidate harness version with its validation run beside the baseline run, the same
// metrics side by side with differences marked, then approve with a reason — recorded, in history.
import { expect, test } from '@playwright/test';
import { base, launchRun, pct, snap, trpcMutation, waitForRun } from './helpers.ts';

test('review a candidate against its baseline and approve it', async ({ page }) => {
  await page.goto('/');
  const task = 'eval_seen-010';
  const policy = 'scripted:household-no-open';
  const baselineId = await launchRun(page, {
    spec: base('household', task),
    policy,
    k: 8,
    kind: 'baseline',
  });
  const code = `export function filterObservation(o) {
  return { ...o, text: o.text.replace('You arrive at', 'Now at') };
}`;
  const created = await trpcMutation<{ harnessId: string; version: { id: string } }>(
    page,
    'harnesses.create',
    {
      name: 'Reworded arrivals',
      spec: { version: 1, env: { type: 'contract', code, env: base('household', task).env } },
    },
  );

  // Launch the validation run from the harness page, as a person would.
  await page.goto(`/harnesses/${created.harnessId}`);
  await page.getByTestId('launch-policy').first().selectOption(policy);
  await page.getByTestId('launch-k').first().fill('8');
  await page.getByTestId('launch-run').first().click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const candidateId = page.url().split('/').pop()!;
  const [baseline, candidate] = [
    await waitForRun(page, baselineId),
    await waitForRun(page, candidateId),
  ];

  await page.goto(`/harnesses/${created.harnessId}`);
  await page.getByTestId('review-link').click();
  await expect(page).toHaveURL(/\/review\?version=1/);
  await expect(page.getByTestId('review-candidate')).toHaveValue(candidateId);
  await expect(page.getByTestId('review-baseline')).toHaveValue(baselineId);
  const success = page.getByTestId('cmp-success');
  await expect(success.getByTestId('cmp-a')).toHaveText(pct(baseline.metrics.successRate));
  await expect(success.getByTestId('cmp-b')).toHaveText(pct(candidate.metrics.successRate));
  await expect(page.getByTestId('cmp-errors').getByTestId('cmp-b')).toHaveText(
    String(candidate.metrics.errors),
  );
  await expect(page.getByTestId('sample-trajectories')).toHaveCount(2);

  await page.getByTestId('decision-reason').fill('Same success, observations read better.');
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('decision')).toHaveCount(1);
  await expect(page.getByTestId('decision').first()).toContainText('approved');
  await expect(page.getByTestId('decision-reason-text').first()).toHaveText(
    'Same success, observations read better.',
  );
  await snap(page, '06-approve');

  // Recorded: after a reload the history and the harness status still show it.
  await page.reload();
  await expect(page.getByTestId('decision').first()).toContainText('approved');
  await page.goto(`/harnesses/${created.harnessId}`);
  await expect(page.getByTestId('harness-status')).toHaveText('approved');
});
