// A Contract without code: rules added in the editor's form block an action and add feedback, the
// spec holds them exactly, and playing the harness shows their effect.
import { expect, type Page, test } from '@playwright/test';
import { snap } from './helpers.ts';

async function exported(page: Page): Promise<unknown> {
  await page.getByTestId('export-json').click();
  const text = await page.getByTestId('export-text').inputValue();
  await page.getByRole('button', { name: 'Close' }).click();
  return JSON.parse(text);
}

test('add Contract rules in the form and see them act when playing', async ({ page }) => {
  await page.goto('/harnesses/new?task=toy24%3A1-1-1-12');
  const base = { type: 'base', bridge: 'toy24', task: '1-1-1-12' };
  await page.getByTestId('import-json').click();
  await page
    .getByTestId('import-text')
    .fill(JSON.stringify({ version: 1, env: { type: 'contract', env: base } }));
  await page.getByTestId('import-apply').click();
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  await page.locator('[data-testid="rf__node-env"]').click();
  await expect(page.getByTestId('rules-empty')).toBeVisible();
  await expect(page.getByTestId('contract-add-code')).toBeVisible();

  // Rule 1: block division.
  await page.getByTestId('rule-add').click();
  const first = page.getByTestId('contract-rule').nth(0);
  await expect(first.getByTestId('rule-kind')).toHaveValue('block');
  await first.getByTestId('rule-pattern').fill('/');
  await first.getByTestId('rule-reason').fill('no division in this harness');

  // Rule 2: feedback appended to every observation.
  await page.getByTestId('rule-add').click();
  const second = page.getByTestId('contract-rule').nth(1);
  await second.getByTestId('rule-kind').selectOption('feedback');
  await second.getByTestId('rule-text').fill(' [ruled]');

  // A broken pattern is named by its rule and field, then fixed.
  await first.getByTestId('rule-pattern').fill('(');
  await expect(page.getByTestId('contract-error')).toContainText(
    'rules[0].pattern: invalid regular expression /(/: Unterminated group',
  );
  await first.getByTestId('rule-pattern').fill('/');
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('node-contract')).toContainText('2 rules');

  expect(await exported(page)).toEqual({
    version: 1,
    env: {
      type: 'contract',
      rules: [
        { kind: 'block', pattern: '/', reason: 'no division in this harness' },
        { kind: 'feedback', text: ' [ruled]', to: 'append' },
      ],
      env: base,
    },
  });

  await page.getByTestId('play-start').click();
  await expect(page.getByTestId('play-goal')).toContainText('1 1 1 12');
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
  await expect(page.getByTestId('play-entry').last()).toContainText('[ruled]');
  await snap(page, 'contract-rules');
});
