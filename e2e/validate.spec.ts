// Validation means it runs: the graph editor refuses to save a harness with a broken hook, an
// unknown task or a hook that loops — the node turns red with the message, the banner says why and
// the save button stays disabled — and saves it once fixed. Try it keeps the real cause of a hook
// timeout when the next command is sent.
import { expect, type Page, test } from '@playwright/test';
import { setEditorText, snap } from './helpers.ts';

const TASK = 'eval_seen-001';
const leaf = { type: 'base', bridge: 'household', task: TASK };

async function importSpec(page: Page, spec: unknown): Promise<void> {
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(spec));
  await page.getByTestId('import-apply').click();
}

const node = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
const status = (page: Page) => page.getByTestId('spec-status');

test('the editor refuses to save a broken hook and an unknown task, then saves the fix', async ({
  page,
}) => {
  await page.goto(`/harnesses/new?task=household%3A${TASK}`);
  await expect(status(page)).toHaveAttribute('data-state', 'valid');
  await expect(status(page)).toContainText('dry episode of 3 idle steps');

  // A syntax error: the contract is red with line:column, the banner lists it, no saving.
  const broken = 'export function filterObservation(o) {\n  return { text: o.text ;\n}\n';
  await importSpec(page, { version: 1, env: { type: 'contract', code: broken, env: leaf } });
  await expect(status(page)).toHaveAttribute('data-state', 'invalid');
  await expect(node(page, 'env').getByTestId('node-contract')).toHaveAttribute(
    'data-problem',
    'true',
  );
  await expect(node(page, 'env').getByTestId('node-issue')).toContainText(/line 2:\d+ — /);
  await expect(page.getByTestId('spec-problem')).toContainText('SyntaxError');
  await expect(page.getByTestId('create-harness')).toBeDisabled();
  await page.getByTestId('harness-name').fill('Two sentences');
  await snap(page, 'validate-broken-hook');

  // The side panel shows it beside the code; fixing the code makes the harness valid.
  await node(page, 'env').click();
  await expect(page.getByTestId('contract-error')).toContainText(/Line 2:\d+/);
  await setEditorText(
    page,
    "export function filterObservation(o) {\n  return { text: o.text.split('. ').slice(0, 2).join('. ') };\n}\n",
  );
  await expect(status(page)).toHaveAttribute('data-state', 'valid');
  await expect(page.getByTestId('contract-ok')).toBeVisible();
  await expect(page.getByTestId('create-harness')).toBeEnabled();

  // A task that does not exist: the environment node is red, the save disabled again.
  await node(page, 'env.env').click();
  await page.getByTestId('base-task').fill('train-99999');
  await expect(status(page)).toHaveAttribute('data-state', 'invalid');
  await expect(node(page, 'env.env').getByTestId('node-base')).toHaveAttribute(
    'data-problem',
    'true',
  );
  await expect(page.getByTestId('node-problems')).toContainText(
    "unknown task 'train-99999' for bridge 'household'",
  );
  await expect(page.getByTestId('create-harness')).toBeDisabled();

  // A hook that loops compiles, but the dry episode stops it at its deadline: not "compiles".
  await page.getByTestId('base-task').fill(TASK);
  await expect(status(page)).toHaveAttribute('data-state', 'valid');
  await node(page, 'env').click();
  await setEditorText(page, 'export function filterAction(a) {\n  while (true) {}\n}\n');
  await expect(status(page)).toHaveAttribute('data-state', 'invalid');
  await expect(page.getByTestId('contract-error')).toContainText(
    'ran longer than its 250 ms limit',
  );
  await expect(page.getByTestId('contract-ok')).toHaveCount(0);
  await expect(page.getByTestId('create-harness')).toBeDisabled();

  // Fixed again, and saved: v1 is the harness that runs.
  const code = 'export function filterAction(a) {\n  return a;\n}\n';
  await setEditorText(page, code);
  await expect(status(page)).toHaveAttribute('data-state', 'valid');
  await page.getByTestId('create-harness').click();
  await expect(page).toHaveURL(/\/harnesses\/[a-z0-9]+$/);
  await expect(page.getByTestId('current-version')).toHaveText('v1');
  await expect(status(page)).toHaveAttribute('data-state', 'valid');
});

test('try it: after a hook timeout the cause stays, the next command is not sent', async ({
  page,
}) => {
  await page.goto(`/harnesses/new?task=household%3A${TASK}`);
  const looping = 'export function filterAction(a) {\n  while (true) {}\n}\n';
  await importSpec(page, { version: 1, env: { type: 'contract', code: looping, env: leaf } });
  await page.getByTestId('play-start').click();
  await expect(page.getByTestId('play-goal')).toBeVisible();
  await page.getByTestId('play-input').fill('look');
  await page.getByTestId('play-send').click();
  const failure = page.getByTestId('play-failure');
  await expect(failure).toContainText('ran longer than its 250 ms limit');
  // Nothing more can be sent into the ended episode, so nothing replaces the cause.
  await expect(page.getByTestId('play-send')).toHaveCount(0);
  await expect(page.getByTestId('play-panel')).not.toContainText('session ended');
  await page.getByTestId('play-start').click();
  await expect(failure).toHaveCount(0);
  await expect(page.getByTestId('play-send')).toBeVisible();
});
