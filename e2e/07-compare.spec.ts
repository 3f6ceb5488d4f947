// Journey 7: any two runs side by side (`?compare=a..b`), the same metrics in the same rows and the
// differences marked.
import { expect, test } from '@playwright/test';
import { base, launchRun, pct, snap, waitForRun } from './helpers.ts';

test('compare two runs side by side with differences marked', async ({ page }) => {
  await page.goto('/');
  const spec = base('household', 'eval_seen-004');
  const a = await launchRun(page, {
    spec,
    policy: 'scripted:household-no-open',
    k: 10,
    kind: 'baseline',
  });
  const b = await launchRun(page, {
    spec,
    policy: 'scripted:household-explorer',
    k: 10,
    kind: 'baseline',
  });
  const [ra, rb] = [await waitForRun(page, a), await waitForRun(page, b)];

  // Pick the two runs in the list; the compare link carries both ids.
  await page.goto('/runs');
  await page.locator(`[data-run-id="${a}"]`).getByTestId('pick-run').check();
  await page.locator(`[data-run-id="${b}"]`).getByTestId('pick-run').check();
  await page.getByTestId('compare-picked').click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?runs=${a}\\.\\.${b}$`));

  // The same view from the run list URL.
  await page.goto(`/runs?compare=${a}..${b}`);
  const success = page.getByTestId('cmp-success');
  await expect(success.getByTestId('cmp-a')).toHaveText(pct(ra.metrics.successRate));
  await expect(success.getByTestId('cmp-b')).toHaveText(pct(rb.metrics.successRate));
  const steps = page.getByTestId('cmp-mean-steps');
  await expect(steps.getByTestId('cmp-a')).toHaveText(ra.metrics.meanSteps?.toFixed(1) ?? '—');
  await expect(steps.getByTestId('cmp-b')).toHaveText(rb.metrics.meanSteps?.toFixed(1) ?? '—');

  const sa = ra.metrics.successRate ?? 0;
  const sb = rb.metrics.successRate ?? 0;
  const expected = sb > sa ? 'better' : sb < sa ? 'worse' : 'same';
  await expect(success.locator('[data-diff]')).toHaveAttribute('data-diff', expected);
  await expect(page.getByTestId('sample-trajectories').first().locator('a').first()).toBeVisible();
  await snap(page, '07-compare');
});
