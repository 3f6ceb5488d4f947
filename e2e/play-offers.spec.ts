// Journey: try a household task by clicking the commands the environment offers. The play panel
// lists the admissible commands under the log; a click sends one as the next action, the reply is
// logged, and the list follows the new state.
import { expect, test } from '@playwright/test';
import { snap } from './helpers.ts';

const TASK = 'eval_seen-001';

test('play a household task by clicking offered commands', async ({ page }) => {
  await page.goto(`/harnesses/new?task=household%3A${TASK}`);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  await page.getByTestId('play-start').click();
  await expect(page.getByTestId('play-goal')).toContainText('put a clean soapbar in garbagecan');
  const offers = page.getByTestId('play-admissible');
  const entries = page.getByTestId('play-entry');
  await expect(offers.getByRole('button', { name: 'inventory', exact: true })).toBeVisible();
  const before = await entries.count();

  // A place to go to, as the environment offers it.
  const goTo = offers.getByRole('button', { name: /^go to / }).first();
  const command = (await goTo.textContent())?.trim() ?? '';
  expect(command).toMatch(/^go to \S/);
  const place = command.slice('go to '.length);
  await goTo.click();
  await expect(entries).toHaveCount(before + 1);
  await expect(entries.last()).toContainText(command);
  await expect(entries.last()).toContainText(`You arrive at ${place}`);
  // The offers follow the new state: standing there, it can be examined and is no place to go to.
  await expect(offers.getByRole('button', { name: `examine ${place}`, exact: true })).toBeVisible();
  await expect(offers.getByRole('button', { name: command, exact: true })).toHaveCount(0);

  await offers.getByRole('button', { name: 'inventory', exact: true }).click();
  await expect(entries).toHaveCount(before + 2);
  await expect(entries.last()).toContainText('You are not carrying anything.');
  await snap(page, 'play-offers');
});
