// EvoHarness journey: run the skill-source comparison from the studio, read the three rows (table
// and chart) and open the skill bank one of them built.
import { expect, test } from '@playwright/test';
import { pct, snap, trpcQuery } from './helpers.ts';

interface Row {
  source: string;
  bankId: string | null;
  skills: number;
  successRate: number;
  meanSteps: number;
}

test('compare skill sources and open a skill bank', async ({ page }) => {
  await page.goto('/skills/compare');
  await page.getByTestId('cmp-policy').selectOption('scripted:household-no-open');
  await page.getByTestId('cmp-envs').fill('3');
  await page.getByTestId('cmp-eval-envs').fill('4');
  await page.getByTestId('cmp-run').click();
  await expect(page).toHaveURL(/id=/, { timeout: 60_000 });
  const id = new URL(page.url()).searchParams.get('id')!;

  const stored = await trpcQuery<{ results: { rows: Row[] } }>(page, 'skills.comparison', { id });
  const table = page.getByTestId('comparison-table');
  await expect(table.getByTestId('comparison-row')).toHaveCount(3);
  for (const r of stored.results.rows) {
    const row = table.locator(`[data-source="${r.source}"]`);
    await expect(row.getByTestId('row-success')).toContainText(pct(r.successRate));
    await expect(row.getByTestId('row-steps')).toHaveText(r.meanSteps.toFixed(1));
  }
  await expect(page.getByTestId('comparison-chart')).toBeVisible();
  // Each success label sits beside its interval's error bar, never across it.
  const labels = page.getByTestId('success-label');
  await expect(labels).toHaveCount(3);
  const bars = page.locator('.recharts-errorBar');
  for (let i = 0; i < 3; i++) {
    const label = await labels.nth(i).boundingBox();
    const bar = await bars.nth(i).boundingBox();
    // A Wilson interval always has width, so every bar has its error bar.
    if (!label || !bar) throw new Error(`bar ${i}: label or error bar not drawn`);
    expect(label.x + label.width).toBeLessThanOrEqual(bar.x);
  }
  await snap(page, 'skills-comparison');

  const original = stored.results.rows.find((r) => r.source === 'original')!;
  await table.locator('[data-source="original"]').getByRole('link', { name: 'bank' }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/${original.bankId}$`));
  await expect(page.getByTestId('skill')).toHaveCount(original.skills);
  await expect(page.getByTestId('edit-history').locator('li')).toHaveCount(original.skills);

  // Sources link to the recorded training episodes (the comparison recorded them as runs).
  const firstSkill = page
    .getByTestId('skill')
    .filter({ has: page.locator('details') })
    .first();
  await firstSkill.locator('summary').click();
  const source = firstSkill.getByTestId('skill-source').first();
  const href = (await source.getAttribute('href'))!;
  expect(href).toMatch(/^\/runs\/[a-z0-9]+\/episodes\/[a-z0-9]+$/);
  await source.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId('episode-outcome')).toBeVisible();

  await page.goto('/skills');
  await expect(page.getByTestId('bank-row').first()).toBeVisible();
});
