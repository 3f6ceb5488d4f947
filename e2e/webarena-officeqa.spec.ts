// The paper's two missing domains in the studio: the webarena and officeqa bridges are in the task
// picker, a baseline of their careful scripted policy runs from the task page, and the trajectory
// shows what each adds — the accessibility tree, the URL and tabs, and a screenshot rebuilt by
// replay (webarena); the pages a search or read referenced (officeqa).
import { expect, test } from '@playwright/test';
import { snap, trpcQuery, waitForRun } from './helpers.ts';

interface Episode {
  id: string;
  steps: number;
  outcome: string | null;
}

async function baseline(
  page: import('@playwright/test').Page,
  bridge: string,
  task: string,
  policy: string,
) {
  await page.goto('/');
  await page.getByTestId(`bridge-${bridge}`).click();
  await expect(page).toHaveURL(new RegExp(`bridge=${bridge}`));
  await page.getByTestId('filter-text').fill(task);
  await page
    .getByTestId('task-link')
    .filter({ hasText: new RegExp(`^${task}$`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${bridge}/${task}$`));
  await page.getByTestId('launch-policy').selectOption(policy);
  await page.getByTestId('launch-k').fill('1');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop() as string;
  expect((await waitForRun(page, runId, 90_000)).status).toBe('completed');
  const [episode] = (await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId })).items;
  expect(episode?.outcome).toBe('success');
  await page.getByTestId('episode-link').first().click();
  await expect(page.getByTestId('step-list')).toHaveAttribute('data-count', String(episode?.steps));
  return episode as Episode;
}

test('webarena and officeqa: task picker, baseline, accessibility tree with a screenshot, page references', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await baseline(page, 'webarena', 'forum-post-author-01', 'scripted:webarena-careful');
  // Step 0 typed the title into the search box: the tree of the results page, its URL and a picture.
  await expect(page.getByTestId('agent-action')).toHaveText(/^type \[\d+\] \[.+\] \[1\]$/);
  await expect(page.getByTestId('observation')).toContainText("RootWebArea 'Search results for");
  await expect(page.getByTestId('observation')).toContainText(
    'URL: http://localhost:9999/search?q=',
  );
  await expect(page.getByTestId('browser-url')).toHaveText(/^http:\/\/localhost:9999\/search\?q=/);
  const shot = page.getByTestId('step-screenshot');
  await expect(shot).toBeVisible({ timeout: 60_000 });
  expect(await shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
  await snap(page, 'webarena-trajectory');

  await baseline(page, 'officeqa', 'oq-restated-01', 'scripted:officeqa-careful');
  // The search step lists its ranked pages; the read step names the page it showed.
  await expect(page.getByTestId('page-ref').first()).toHaveText(
    /^annual-report-fy20\d\d\.pdf · p\. \d+$/,
  );
  await page.keyboard.press('j');
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('page-ref')).toHaveCount(1);
  await expect(page.getByTestId('observation')).toContainText('Restated after the audit');
  await snap(page, 'officeqa-trajectory');
});
