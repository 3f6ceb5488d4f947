// Journeys of the choices that keep the studio like the papers: a Stage's first observation and a
// branch chain's verdict rule in the editor (defaults shown), a run played in GRPO groups (the
// invalid-action cut-off off unless asked for), and a rig in paper mode whose page says which
// designer it uses and why.
import { expect, type Page, test } from '@playwright/test';
import { snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

const TASK = 'eval_seen-014';

async function exported(page: Page): Promise<Record<string, unknown>> {
  await page.getByTestId('export-json').click();
  const text = await page.getByTestId('export-text').inputValue();
  await page.getByRole('button', { name: 'Close' }).click();
  return JSON.parse(text) as Record<string, unknown>;
}

test('the editor states a Stage’s first observation and a branch chain’s verdict rule', async ({
  page,
}) => {
  await page.goto('/');
  const leaf = (task: string) => ({ type: 'base', bridge: 'household', task });
  const { harnessId } = await trpcMutation<{ harnessId: string }>(page, 'harnesses.create', {
    name: 'Branch with a staged first leg',
    spec: {
      version: 1,
      env: {
        type: 'chain',
        mode: 'branch',
        first: {
          type: 'stage',
          actions: [{ name: 'act', args: { command: 'look' } }],
          env: leaf(TASK),
        },
        second: leaf('eval_seen-015'),
        remedial: leaf('eval_seen-017'),
      },
    },
  });
  await page.goto(`/harnesses/${harnessId}`);

  await page.locator('[data-testid="rf__node-env.first"]').click();
  const intro = page.getByTestId('stage-intro');
  await expect(intro).toHaveValue('reset');
  await expect(intro.locator('option:checked')).toHaveText('reset (default)');
  await intro.selectOption('state');
  await expect(page.locator('[data-testid="rf__node-env.first"]')).toContainText('intro: state');

  await page.locator('[data-testid="rf__node-env"]').click();
  const verdict = page.getByTestId('chain-verdict');
  await expect(verdict).toHaveValue('all-legs');
  await expect(verdict.locator('option:checked')).toHaveText('all-legs (default)');
  await verdict.selectOption('remedial-decides');
  await expect(page.getByTestId('side-panel')).toContainText(
    'the episode succeeds when the remedial leg does',
  );
  const spec = (await exported(page)) as {
    env: { verdict?: string; first: { intro?: string } };
  };
  expect(spec.env.verdict).toBe('remedial-decides');
  expect(spec.env.first.intro).toBe('state');
  await snap(page, 'fidelity-editor');
});

test('a run in GRPO groups: every start seed played G times, no cut-off unless asked', async ({
  page,
}) => {
  await page.goto(`/tasks/household/${TASK}`);
  const form = page.getByTestId('launch-form');
  await form.getByTestId('launch-policy').selectOption('scripted:household-explorer');
  await form.getByTestId('launch-k').fill('4');
  await form.getByTestId('launch-group-size').fill('3');
  await expect(form.getByTestId('launch-group-size-problem')).toContainText(
    'must be a multiple of the group size (3)',
  );
  await form.getByTestId('launch-group-size').fill('2');
  await expect(form.getByTestId('launch-seeds')).toHaveText(
    '2 groups of 2: start seeds 0 … 1, each played 2 times with policy seeds 0 … 3.',
  );
  // The cut-off the benchmark does not have is off, and says so; turning it on shows its limit.
  await expect(form.getByTestId('launch-cutoff')).not.toBeChecked();
  await expect(form).toContainText('Off (the default)');
  await form.getByTestId('launch-cutoff').check();
  await expect(form.getByTestId('launch-cutoff-limit')).toHaveValue('10');
  await form.getByTestId('launch-cutoff').uncheck();
  await form.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('run-groups')).toHaveText('2 groups of 2 per task');
  await expect(page.getByTestId('run-cutoff')).toHaveCount(0);
  await waitForRun(page, runId);
  const episodes = await trpcQuery<{ items: { seed: number; startSeed: number | null }[] }>(
    page,
    'runs.episodes',
    { runId },
  );
  expect(episodes.items.map((e) => [e.seed, e.startSeed])).toEqual([
    [0, 0],
    [1, 0],
    [2, 1],
    [3, 1],
  ]);
});

test('a rig in paper mode: Stage and Contract only, and the page names its designer and why', async ({
  page,
}) => {
  await page.goto(`/tasks/household/${TASK}`);
  const form = page.getByTestId('launch-rig');
  await form.getByTestId('rig-policy').selectOption('scripted:household-looper');
  await expect(form.getByTestId('rig-component-stage')).toBeChecked();
  await expect(form.getByTestId('rig-component-contract')).toBeChecked();
  await expect(form.getByTestId('rig-component-chain')).not.toBeChecked();
  await expect(form.getByTestId('rig-components-field')).toContainText('Paper mode');
  await expect(form.getByTestId('rig-designer')).toHaveValue('');
  await expect(form.getByTestId('rig-designer-note')).toHaveText(
    'heuristic: a scripted policy has no model to design with: the offline rule-based designer',
  );
  await form.getByTestId('rig-k').fill('2');
  await form.getByTestId('rig-iterations').fill('1');
  await form.getByTestId('rig-launch').click();
  await expect(page).toHaveURL(/\/rigs\/[a-z0-9]+$/);
  await expect(page.getByTestId('rig-designer-used')).toHaveText('heuristic designer');
  await expect(page.getByTestId('rig-designer-why')).toHaveText(
    'a scripted policy has no model to design with: the offline rule-based designer',
  );
  await expect(page.getByTestId('rig-components')).toHaveText('stage, contract (paper mode)');
  await expect(page.getByTestId('rig-status')).toHaveText('completed', { timeout: 60_000 });
  const rigId = page.url().split('/').pop() ?? '';
  const rig = await trpcQuery<{ candidates: { spec: { env: unknown } }[] }>(page, 'rigs.byId', {
    id: rigId,
  });
  // Whatever it wrote, it wrote no Chain.
  for (const c of rig.candidates) expect(JSON.stringify(c.spec)).not.toContain('"chain"');
  const template = page.getByTestId('candidate-template');
  if (rig.candidates.length > 0) await expect(template.first()).toBeVisible();
  await snap(page, 'fidelity-rig');
});
