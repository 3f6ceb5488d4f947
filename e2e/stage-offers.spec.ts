// Journey: record a Stage by playing. The Stage panel plays the wrapped household environment and
// offers the commands admissible next; clicking one keeps it as a set-up action and plays again
// from there; the exported spec holds the recorded actions.
import { expect, test } from '@playwright/test';
import { clickEdge, connectNodes, nodeId, snap } from './helpers.ts';

const TASK = 'eval_seen-001';

test('record a Stage by clicking offered commands', async ({ page }) => {
  await page.goto(`/harnesses/new?task=household%3A${TASK}`);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  // env -> stage -> output.
  await page.getByTestId('palette-stage').click();
  const stage = await nodeId(page, 'stage');
  await clickEdge(page, 'e:env->output:env');
  await page.keyboard.press('Delete');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await connectNodes(page, 'env', stage, 'env');
  await connectNodes(page, stage, 'output', 'env');
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  await page.locator(`[data-testid="rf__node-${stage}"]`).click();
  await expect(page.getByTestId('stage-actions')).toContainText('No set-up actions yet.');
  await page.getByTestId('stage-offer').click();
  const offers = page.getByTestId('stage-offers');
  await expect(offers.getByRole('button', { name: 'inventory', exact: true })).toBeVisible();

  // A place to go to, as the environment offers it.
  const goTo = offers.getByRole('button', { name: /^go to / }).first();
  const command = (await goTo.textContent())?.trim() ?? '';
  expect(command).toMatch(/^go to \S/);
  await goTo.click();
  await expect(page.getByTestId('stage-actions').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('stage-actions')).toContainText(command);
  // Played again from there: the environment's reply to the recorded command is shown.
  const place = command.slice('go to '.length);
  await expect(page.getByTestId('stage-observation')).toContainText(`You arrive at ${place}`);

  await snap(page, 'stage-offers');
  await page.getByTestId('export-json').click();
  const spec = JSON.parse(await page.getByTestId('export-text').inputValue()) as unknown;
  expect(spec).toEqual({
    version: 1,
    env: {
      type: 'stage',
      actions: [{ name: 'act', args: { command } }],
      env: { type: 'base', bridge: 'household', task: TASK },
    },
  });
});
