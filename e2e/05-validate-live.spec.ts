// Journey 5: a run page streams while the run is in flight — episodes appear as they end, the
// numbers move without a reload, a dropped connection resumes, and the final numbers equal the
// run's stored metrics.
import { expect, test } from '@playwright/test';
import { pct, snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

test('the run page updates live and resumes after a reconnect', async ({ page }) => {
  await page.goto('/');
  const total = 300;
  // A harness version to validate (a contract that only rewords arrivals).
  const created = await trpcMutation<{ harnessId: string }>(page, 'harnesses.create', {
    name: 'Reworded arrivals (live)',
    spec: {
      version: 1,
      env: {
        type: 'contract',
        code: "export function filterObservation(o) { return { ...o, text: o.text.replace('You arrive at', 'Now at') }; }",
        env: { type: 'base', bridge: 'household', task: 'eval_seen-004' },
      },
    },
  });
  // Launch the validation run from the harness page; the studio moves to the run page at once.
  await page.goto(`/harnesses/${created.harnessId}`);
  await page.getByTestId('launch-policy').selectOption('scripted:household-explorer');
  await page.getByTestId('launch-k').fill(String(total));
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'pending');

  // Record every distinct episode count the page shows, as it shows it.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    const read = () => {
      const text = document.querySelector('[data-testid="progress"]')?.textContent ?? '';
      if (seen.at(-1) !== text) seen.push(text);
    };
    read();
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });

  // Drop the connection mid-run, then come back: the stream resumes from the last event id.
  await page.waitForFunction(() => (window as unknown as { __seen: string[] }).__seen.length >= 2);
  await page.context().setOffline(true);
  await page.waitForTimeout(1200);
  await page.context().setOffline(false);

  const run = await waitForRun(page, runId, 120_000);
  await expect(page.getByTestId('progress')).toHaveText(`${total} / ${total}`, { timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  const intermediate = seen.filter((s) => s !== `${total} / ${total}`);
  expect(intermediate.length, `progress values seen: ${seen.join(' | ')}`).toBeGreaterThanOrEqual(
    2,
  );

  // Final numbers equal what the run stored.
  await expect(page.getByTestId('success-rate')).toHaveText(pct(run.metrics.successRate));
  await expect(page.getByTestId('mean-steps')).toHaveText(
    run.metrics.meanSteps === null ? '—' : run.metrics.meanSteps.toFixed(1),
  );
  await expect(page.getByTestId('harness-errors')).toHaveText(
    String(run.metrics.errorDistribution.harness ?? 0),
  );
  const episodes = await trpcQuery<{ items: unknown[] }>(page, 'runs.episodes', {
    runId,
    limit: 1000,
  });
  expect(episodes.items).toHaveLength(total);
  await expect(page.getByTestId('episode-count')).toHaveText(`${total} episodes`);
  await expect(page.getByTestId('live-indicator')).toHaveCount(0);
  await snap(page, '05-live-run');
});
