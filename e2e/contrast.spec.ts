// Issue 17 §2: no colour-contrast violations (axe-core, WCAG 2 AA) on the graph editor, a run and a
// trajectory, in the light and the dark theme.
import { expect, test } from '@playwright/test';
import { contrastViolations } from './axe.ts';
import { base, launchRun, snap, trpcMutation, waitForRun } from './helpers.ts';

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

  // A Contract of declarative rules, its form open in the editor's panel.
  const { harnessId } = await trpcMutation<{ harnessId: string }>(page, 'harnesses.create', {
    name: 'Contrast: rules',
    spec: {
      version: 1,
      env: {
        type: 'contract',
        rules: [
          { kind: 'block', pattern: '^clean ', reason: 'hold it first' },
          { kind: 'truncate', max: 2, unit: 'sentences' },
          { kind: 'feedback', text: ' [ruled]', to: 'append' },
        ],
        env: base('household', 'eval_seen-001').env,
      },
    },
  });
  const openRules = async () => {
    await page.locator('[data-testid="rf__node-env"]').click();
    await expect(page.getByTestId('contract-rule')).toHaveCount(3);
  };

  const pages: [string, string, string, (() => Promise<void>)?][] = [
    ['editor', '/harnesses/new?task=household:eval_seen-001', 'graph-canvas'],
    ['rules form', `/harnesses/${harnessId}`, 'graph-canvas', openRules],
    ['run', `/runs/${runId}`, 'progress'],
    ['trajectory', `${episodeHref}?step=1`, 'episode-outcome'],
  ];
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, url, ready, prepare] of pages) {
      await page.goto(url);
      await expect(page.getByTestId(ready).first()).toBeVisible();
      await prepare?.();
      await expect(page.locator('html')).toHaveClass(new RegExp(scheme));
      // The canvas draws its own controls and minimap: they follow the page's theme from the first
      // load, not only after a toggle (their icons carry no text for axe to measure).
      if (ready === 'graph-canvas') {
        await expect(page.locator('.react-flow')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
      }
      // Let charts and the graph settle (fit, fade-ins) before measuring.
      await page.waitForTimeout(600);
      for (const v of await contrastViolations(page)) found.push(`${scheme} ${name}: ${v}`);
      if (prepare) await snap(page, `contrast-${name.replace(/ /g, '-')}-${scheme}`);
    }
  }
  expect(found).toEqual([]);
});
