// Issue 17 §2: no colour-contrast violations (axe-core, WCAG 2 AA) on the graph editor, a run and a
// trajectory, in the light and the dark theme.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { base, launchRun, waitForRun } from './helpers.ts';

async function contrastViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'rule', values: ['color-contrast'] },
      resultTypes: ['violations'],
    })
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').at(-1)?.trim()}`),
  );
}

test('editor, run and trajectory pages pass axe contrast checks in both themes', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/runs');
  const runId = await launchRun(page, {
    policy: 'scripted:household-no-open',
    spec: base('household', 'eval_seen-001'),
    k: 1,
  });
  await waitForRun(page, runId, 90_000);
  await page.goto(`/runs/${runId}`);
  const episodeHref = await page.getByTestId('episode-link').first().getAttribute('href');
  expect(episodeHref).toBeTruthy();

  const pages: [string, string, string][] = [
    ['editor', '/harnesses/new?task=household:eval_seen-001', 'graph-canvas'],
    ['run', `/runs/${runId}`, 'progress'],
    ['trajectory', `${episodeHref}?step=1`, 'episode-outcome'],
  ];
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, url, ready] of pages) {
      await page.goto(url);
      await expect(page.getByTestId(ready).first()).toBeVisible();
      await expect(page.locator('html')).toHaveClass(new RegExp(scheme));
      // Let charts and the graph settle (fit, fade-ins) before measuring.
      await page.waitForTimeout(600);
      for (const v of await contrastViolations(page)) found.push(`${scheme} ${name}: ${v}`);
    }
  }
  expect(found).toEqual([]);
});
