// Runs tell the truth at a glance: an all-errors run says so in red, the list filters, searches and
// sorts with its state in the URL, the run page's Progress and episode count agree while it streams,
// lineage links go both ways, the failure chart explains the loop rule, a whole row opens an episode.
import { expect, type Page, test } from '@playwright/test';
import { base, launchRun, snap, trpcMutation, waitForRun } from './helpers.ts';

const THROWS = {
  version: 1,
  env: {
    type: 'contract',
    code: "export function filterAction(a) { throw new Error('hook exploded'); }",
    env: base('household', 'eval_seen-002').env,
  },
};

/** Waits until the list shows the rows of a view (`bridge=household`, `sort=errors&dir=asc`…). */
async function settled(page: Page, view: string) {
  await expect(
    page.locator(`[data-testid="runs-table"][data-view*="${view}"]:not([data-stale])`),
  ).toHaveCount(1);
}

const row = (page: Page, runId: string) =>
  page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);

test('a run whose every episode errored says "all errors" in red, in the list and on its page', async ({
  page,
}) => {
  await page.goto('/');
  const errors = await launchRun(page, {
    spec: THROWS,
    policy: 'scripted:household-explorer',
    k: 3,
  });
  const clean = await launchRun(page, {
    spec: base('toy24', '1-1-1-8'),
    policy: 'scripted:toy24-greedy',
    k: 2,
  });
  expect((await waitForRun(page, errors)).status).toBe('completed');
  await waitForRun(page, clean);

  await page.goto('/runs');
  const badge = row(page, errors).getByTestId('run-outcome');
  await expect(badge).toHaveText('all errors');
  await expect(badge).toHaveClass(/text-danger/);
  await expect(row(page, errors).getByTestId('run-status')).toHaveText('completed');
  await expect(row(page, errors)).toContainText('none scored');
  await expect(row(page, clean).getByTestId('run-outcome')).toHaveText('no errors');
  await expect(row(page, clean).getByTestId('run-outcome')).not.toHaveClass(/text-danger/);

  await row(page, errors).getByTestId('run-link').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${errors}$`));
  await expect(page.getByTestId('run-outcome')).toHaveText('all errors');
  await expect(page.getByTestId('all-errors-note')).toBeVisible();
  await snap(page, 'runs-all-errors');
});

test('the runs list filters, searches and sorts on the server, its state in the URL', async ({
  page,
}) => {
  await page.goto('/');
  const looper = await launchRun(page, {
    spec: base('household', 'eval_seen-001'),
    policy: 'scripted:household-looper',
    k: 4,
  });
  const errors = await launchRun(page, { spec: THROWS, policy: 'scripted:household-looper', k: 2 });
  await waitForRun(page, looper);
  await waitForRun(page, errors);

  await page.goto('/runs');
  // Started stays on screen at 1440 px: the table needs no sideways scroll.
  const started = page.getByTestId('run-started').first();
  await expect(started).toBeInViewport();
  const box = await started.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1440);

  await page.getByTestId('filter-policy').selectOption('scripted:household-looper');
  await page.getByTestId('filter-outcome').selectOption('all_errors');
  await expect(page).toHaveURL(/policy=scripted%3Ahousehold-looper/);
  await expect(page).toHaveURL(/outcome=all_errors/);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await expect(row(page, errors)).toBeVisible();

  // The view is in the URL: a reload (or a shared link) shows the same list.
  await page.reload();
  await expect(page.getByTestId('filter-outcome')).toHaveValue('all_errors');
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.getByTestId('filters-clear').click();
  await expect(page.getByTestId('run-row').first()).toBeVisible();

  await page.getByTestId('runs-search').fill(looper.slice(-7));
  await expect(page).toHaveURL(new RegExp(`q=${looper.slice(-7)}`));
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await expect(row(page, looper)).toBeVisible();
  await page.getByTestId('runs-search').fill('');
  await expect(page).not.toHaveURL(/q=/);

  await page.getByTestId('filter-bridge').selectOption('household');
  await settled(page, 'bridge=household');
  for (const task of await page.getByTestId('run-task').allTextContents())
    expect(task).toMatch(/^household:/);

  // Sort by errors, most first; then the other way.
  await page.getByTestId('sort-errors').click();
  await expect(page).toHaveURL(/sort=errors&dir=desc/);
  await expect(page.getByTestId('sort-errors')).toHaveAttribute('data-active', 'desc');
  await settled(page, 'sort=errors&dir=desc');
  const desc = (await page.getByTestId('run-errors').allTextContents()).map(Number);
  expect(desc).toEqual([...desc].sort((a, b) => b - a));
  expect(desc[0]).toBeGreaterThan(0);
  await page.getByTestId('sort-errors').click();
  await expect(page).toHaveURL(/sort=errors&dir=asc/);
  await expect(page.getByTestId('sort-errors')).toHaveAttribute('data-active', 'asc');
  await settled(page, 'sort=errors&dir=asc');
  const asc = (await page.getByTestId('run-errors').allTextContents()).map(Number);
  expect(asc).toEqual([...asc].sort((a, b) => a - b));

  // The looper's failures are invalid-action loops, and the chart says what that means.
  await page.goto(`/runs/${looper}`);
  const chart = page.getByTestId('failure-chart');
  const c = await chart.boundingBox();
  if (!c) throw new Error('no failure chart');
  // Four categories in order; the loop is the last row.
  await page.mouse.move(c.x + c.width / 2, c.y + 4 + ((c.height - 8) * 3.5) / 4);
  const tip = page.getByTestId('failure-tooltip');
  await expect(tip).toHaveAttribute('data-category', 'invalid_action_loop');
  await expect(tip).toContainText('At least 10 of the last 20 steps were invalid');
  await snap(page, 'runs-loop-tooltip');
});

test('Progress and the episode count read the same number while the run streams', async ({
  page,
}) => {
  await page.goto('/');
  // A browser-driven bridge (about a second per episode): household runs now end before the page
  // has loaded, and this test needs a run that is still streaming while it samples.
  const runId = await launchRun(page, {
    spec: base('webshop', 'ws-0000'),
    policy: 'scripted:webshop-careful',
    k: 16,
  });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('live-indicator')).toBeVisible();
  const samples: string[] = [];
  for (let i = 0; i < 25; i++) {
    // Both read in one task of the page, so they are the same moment.
    const pair = await page.evaluate(() => {
      const text = (id: string) =>
        document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
      return [text('progress'), text('episode-count')];
    });
    const done = /^(\d+) \//.exec(pair[0] ?? '')?.[1];
    const listed = /^(\d+) episode/.exec(pair[1] ?? '')?.[1];
    if (done !== undefined && listed !== undefined) {
      samples.push(`${done}=${listed}`);
      expect(listed, `progress "${pair[0]}" vs table "${pair[1]}"`).toBe(done);
    }
    await page.waitForTimeout(150);
  }
  expect(samples.length).toBeGreaterThan(5);
  await waitForRun(page, runId, 120_000);
  await expect(page.getByTestId('progress')).toHaveText('16 / 16');
  await expect(page.getByTestId('episode-count')).toHaveText('16 episodes');
  // The runs list shows the same count.
  await page.goto(`/runs?q=${runId}`);
  await expect(row(page, runId)).toContainText('16/16');
});

test('lineage links both ways, a chain names both tasks, a whole row opens its episode', async ({
  page,
}) => {
  await page.goto('/');
  const spec = {
    version: 1,
    env: {
      type: 'contract',
      code: "export function filterObservation(o) { return { ...o, text: o.text.replace('You arrive at', 'Now at') }; }",
      env: base('household', 'eval_seen-007').env,
    },
  };
  const created = await trpcMutation<{ harnessId: string; version: { id: string } }>(
    page,
    'harnesses.create',
    { name: 'Lineage arrivals', spec },
  );
  const validation = await launchRun(page, {
    spec,
    policy: 'scripted:household-explorer',
    k: 2,
    kind: 'validation',
    harnessVersionId: created.version.id,
  });
  const chain = await launchRun(page, {
    spec: {
      version: 1,
      env: {
        type: 'chain',
        mode: 'sequential',
        first: base('household', 'eval_seen-008').env,
        second: base('household', 'eval_seen-009').env,
      },
    },
    policy: 'scripted:household-explorer',
    k: 1,
  });
  await waitForRun(page, validation);
  await waitForRun(page, chain);

  // The list names the run after what it validated.
  await page.goto(`/runs?q=${validation}`);
  await expect(row(page, validation).getByTestId('run-name')).toHaveText('Lineage arrivals v1');

  // Run → version, and the version's page back to the run.
  await page.goto(`/runs/${validation}`);
  await expect(page.getByTestId('run-lineage')).toContainText('Validates Lineage arrivals v1');
  await page.getByTestId('lineage-version').click();
  await expect(page).toHaveURL(new RegExp(`/harnesses/${created.harnessId}\\?version=1$`));
  await page.getByTestId('version-runs').locator(`a[href="/runs/${validation}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${validation}$`));

  // A whole episode row opens the episode (here: a click on its seed cell).
  const first = page.getByTestId('episode-row').first();
  const episodeId = await first.getAttribute('data-episode-id');
  await first.locator('td').nth(2).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${validation}/episodes/${episodeId}`));

  // A chain run shows both of its tasks, in the list and on its page.
  await page.goto(`/runs/${chain}`);
  await expect(page.getByTestId('run-task-link')).toHaveText([
    'household:eval_seen-008',
    'household:eval_seen-009',
  ]);
  await page.goto(`/runs?q=${chain}`);
  await expect(row(page, chain).getByTestId('run-task')).toContainText('eval_seen-009');
  await snap(page, 'runs-lineage');
});
