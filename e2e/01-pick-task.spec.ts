// Journey 1: pick a benchmark task — bridges and their tasks, filters by split / type / text, and a
// task page with the goal, tools, state schema and its runs.
import { expect, test } from '@playwright/test';
import { snap, trpcQuery } from './helpers.ts';

interface TaskPage {
  items: { id: string; type: string; split: string; goal: string }[];
  total: number;
}

test('pick a household task by split, type and text, then read its page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('bridge-toy24')).toBeVisible();
  await page.getByTestId('bridge-household').click();
  await expect(page).toHaveURL(/bridge=household/);

  const all = await trpcQuery<TaskPage>(page, 'tasks.list', { bridge: 'household', limit: 1 });
  await expect(page.getByTestId('task-count')).toHaveText(
    `${all.total.toLocaleString('en-US')} matching`,
  );

  await page.getByTestId('filter-split').selectOption('eval_seen');
  const seen = await trpcQuery<TaskPage>(page, 'tasks.list', {
    bridge: 'household',
    split: 'eval_seen',
    limit: 1,
  });
  expect(seen.total).toBe(140);
  await expect(page.getByTestId('task-count')).toHaveText('140 matching');

  await page.getByTestId('filter-type').selectOption('pick_clean_then_place_in_recep');
  const typed = await trpcQuery<TaskPage>(page, 'tasks.list', {
    bridge: 'household',
    split: 'eval_seen',
    type: 'pick_clean_then_place_in_recep',
    limit: 500,
  });
  await expect(page.getByTestId('task-count')).toHaveText(`${typed.total} matching`);
  await expect(page.getByTestId('task-link')).toHaveCount(typed.items.length);

  await page.getByTestId('filter-text').fill('egg');
  const eggs = typed.items.filter((t) => t.goal.includes('egg') || t.id.includes('egg'));
  await expect(page.getByTestId('task-count')).toHaveText(`${eggs.length} matching`);
  await expect(page).toHaveURL(/split=eval_seen/);
  await expect(page).toHaveURL(/q=egg/);
  const first = eggs[0]!;

  // The URL carries the view: reloading shows the same filtered list.
  await page.reload();
  await expect(page.getByTestId('task-count')).toHaveText(`${eggs.length} matching`);

  await page.getByTestId('task-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/tasks/household/${first.id}$`));
  await expect(page.getByTestId('task-goal')).toHaveText(first.goal);
  await expect(page.getByTestId('task-tools')).toContainText('act');
  await expect(page.getByTestId('state-schema')).toContainText('"properties"');
  await expect(page.getByTestId('launch-form')).toBeVisible();
  await expect(page.getByText('No runs yet')).toBeVisible();
  await snap(page, '01-task-page');
});
