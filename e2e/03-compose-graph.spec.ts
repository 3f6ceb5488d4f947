// Journey 3: compose a harness as a node graph — palette, validated connections, the graph as the
// HarnessSpec (export equals the spec, import round-trips), hook code checked with line numbers,
// undo/redo, auto-layout, named immutable versions with a diff.
import { expect, type Page, test } from '@playwright/test';
import { clickEdge, connectNodes, nodeId, setEditorText, snap } from './helpers.ts';

const TASK = 'eval_seen-001';

async function exported(page: Page): Promise<unknown> {
  await page.getByTestId('export-json').click();
  const text = await page.getByTestId('export-text').inputValue();
  await page.getByRole('button', { name: 'Close' }).click();
  return JSON.parse(text);
}

test('compose, check, undo, lay out, export/import and version a harness graph', async ({
  page,
}) => {
  await page.goto(`/tasks/household/${TASK}`);
  await page.getByTestId('new-harness').click();
  await expect(page).toHaveURL(/\/harnesses\/new\?task=household%3Aeval_seen-001/);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');
  expect(await exported(page)).toEqual({
    version: 1,
    env: { type: 'base', bridge: 'household', task: TASK },
  });

  // A Contract from the palette; the environment already feeds the output, so wiring it into the
  // contract as well is refused (a harness is a tree).
  await page.getByTestId('palette-contract').click();
  const contract = await nodeId(page, 'contract');
  await expect(page.getByTestId('code-editor')).toBeVisible();
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'false');
  await connectNodes(page, 'env', contract, 'env');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  // Unplug the environment from the output (Delete removes the edge, not the contract that was
  // selected before it), then wire env -> contract -> output.
  await clickEdge(page, 'e:env->output:env');
  await page.keyboard.press('Delete');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  await connectNodes(page, 'env', contract, 'env');
  await connectNodes(page, contract, 'output', 'env');
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');

  // Hook code: a syntax error is reported with its line; fixed code compiles.
  await page.locator(`[data-testid="rf__node-${contract}"]`).click();
  await setEditorText(
    page,
    'export function filterObservation(o) {\n  return { text: o.text.slice(0, 40) ;\n}\n',
  );
  await page.getByTestId('contract-check').click();
  await expect(page.getByTestId('contract-error')).toContainText('Line 2');
  const code =
    'export function filterObservation(o) {\n  return { text: o.text.slice(0, 40) };\n}\n';
  await setEditorText(page, code);
  await page.getByTestId('contract-check').click();
  await expect(page.getByTestId('contract-ok')).toBeVisible();

  const expected = {
    version: 1,
    env: { type: 'contract', code, env: { type: 'base', bridge: 'household', task: TASK } },
  };
  expect(await exported(page)).toEqual(expected);

  // Undo / redo: a Chain added and taken back.
  const before = await page.locator('.react-flow__node').count();
  await page.getByTestId('palette-chain').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(before + 1);
  await page.getByTestId('undo').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(before);
  await page.getByTestId('redo').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(before + 1);
  await page.getByTestId('undo').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(before);

  // Auto-layout: environment, contract and output from left to right.
  await page.getByTestId('auto-layout').click();
  await page.waitForTimeout(400);
  const x = async (id: string) =>
    (await page.locator(`[data-testid="rf__node-${id}"]`).boundingBox())!.x;
  expect(await x('env')).toBeLessThan(await x(contract));
  expect(await x(contract)).toBeLessThan(await x('output'));

  // Save as a named harness (v1).
  await page.getByTestId('harness-name').fill('Short observations');
  await page.getByTestId('create-harness').click();
  await expect(page).toHaveURL(/\/harnesses\/[a-z0-9]+$/);
  await expect(page.getByTestId('current-version')).toHaveText('v1');

  // Import a chain spec: the graph shows it, and exporting gives the very same spec back.
  const chain = {
    version: 1,
    env: {
      type: 'chain',
      mode: 'sequential',
      first: {
        type: 'stage',
        actions: [{ name: 'act', args: { command: 'go to countertop 1' } }],
        env: expected.env,
      },
      second: { type: 'base', bridge: 'household', task: 'eval_seen-004' },
      carryContext: true,
    },
  };
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(chain));
  await page.getByTestId('import-apply').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(6);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');
  expect(await exported(page)).toEqual(chain);

  // Save it as v2 and diff the versions.
  await page.getByTestId('version-name').fill('chain a heat task');
  await page.getByTestId('save-version').click();
  await expect(page.getByTestId('current-version')).toHaveText('v2');
  await page.getByTestId('diff-from').selectOption('1');
  await page.getByTestId('diff-to').selectOption('2');
  await expect(page).toHaveURL(/diff=1\.\.2/);
  await expect(page.getByTestId('version-diff')).toContainText('env');
  await expect(page.getByTestId('diff-change').first()).toBeVisible();
  await snap(page, '03-graph-editor');

  // Versions are immutable: loading v1 shows v1's graph again.
  await page.getByTestId('version-load').filter({ hasText: 'v1' }).click();
  await expect(page.getByTestId('current-version')).toHaveText('v1');
  expect(await exported(page)).toEqual(expected);
});
