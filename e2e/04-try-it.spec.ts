// Journey 4: try the composed environment in the browser, as the policy would see it: the filtered
// observations, blocked actions, and the benchmark's verifier at the end.
import { expect, test } from '@playwright/test';
import { snap } from './helpers.ts';

test('play a harnessed toy24 task to the verifier', async ({ page }) => {
  await page.goto('/harnesses/new?task=toy24%3A1-1-1-12');
  const spec = {
    version: 1,
    env: {
      type: 'contract',
      code: `export function filterAction(action) {
  if (String(action.args.expression).includes('/')) return { blocked: 'no division in this harness' };
  return action;
}
export function filterObservation(o) {
  return { ...o, text: o.text + ' [harnessed]' };
}`,
      env: { type: 'base', bridge: 'toy24', task: '1-1-1-12' },
    },
  };
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(spec));
  await page.getByTestId('import-apply').click();
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  await page.getByTestId('play-start').click();
  await expect(page.getByTestId('play-goal')).toContainText('1 1 1 12');
  await expect(page.getByTestId('play-observation').first()).toContainText('[harnessed]');

  const send = async (expression: string) => {
    const entries = await page.getByTestId('play-entry').count();
    await page.getByTestId('play-input').fill(expression);
    await page.getByTestId('play-send').click();
    await expect(page.getByTestId('play-entry')).toHaveCount(entries + 1);
  };

  await send('12 / 1');
  await expect(page.getByTestId('play-entry').last()).toContainText(
    'blocked: no division in this harness',
  );
  await send('1 + 1');
  await expect(page.getByTestId('play-entry').last()).toContainText('[harnessed]');
  await send('2 * 12');
  await send('24 * 1');
  await expect(page.getByTestId('play-verdict')).toContainText('success');
  await snap(page, '04-try-it');
});
