// An OpenEnv server attached as a bridge (the Python stdlib fixture `grid`, started by
// playwright.config.ts): pick its task, read its action schema, run the generic scripted baseline,
// and open a trajectory whose steps keep the server's own reply.
import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

interface Step {
  index: number;
  observation: { text: string };
  info: { openenv?: { observation: { prompt: string } } };
}

test('attach an OpenEnv server, pick its task, run a baseline, open the trajectory', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByTestId('bridge-grid').click();
  await expect(page).toHaveURL(/bridge=grid/);
  await expect(page.getByTestId('task-count')).toHaveText('2 matching');
  await page.getByTestId('task-link').filter({ hasText: 'wide' }).click();
  await expect(page).toHaveURL(/\/tasks\/grid\/wide$/);
  await expect(page.getByTestId('task-goal')).toContainText('"size":5');
  await expect(page.getByTestId('action-schema')).toContainText('GridAction');
  await expect(page.getByTestId('task-tools')).toContainText('act');

  await page.getByTestId('launch-policy').selectOption('scripted:schema-random');
  await page.getByTestId('launch-k').fill('2');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;
  const run = await waitForRun(page, runId);
  expect(run.metrics.errors).toBe(0);
  await expect(page.getByTestId('progress')).toHaveText('2 / 2');

  await page.getByTestId('episode-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/episodes/[a-z0-9]+`));
  const episodeId = page.url().split('/episodes/')[1]!.split('?')[0]!;
  const steps = await trpcQuery<{ items: Step[] }>(page, 'runs.steps', {
    episodeId,
    from: 0,
    limit: 5,
  });
  const first = steps.items[0]!;
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '0');
  await expect(page.getByTestId('observation')).toHaveText(first.observation.text);
  // The server's raw observation dict is kept with the step, and shown.
  await expect(page.getByTestId('step-info')).toContainText(
    first.info.openenv!.observation.prompt.slice(0, 40),
  );
  await expect(page.getByTestId('episode-summary')).toContainText('final-reward');
  await snap(page, 'openenv-trajectory');
});

test('serve a harness version to a trainer from the studio, with its live session count', async ({
  page,
}) => {
  const created = await trpcMutation<{ harnessId: string; version: { version: number } }>(
    page,
    'harnesses.create',
    {
      name: 'Served to a trainer',
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
    },
  );
  await page.goto(`/harnesses/${created.harnessId}`);
  const panel = page.getByTestId('serve-panel');
  await expect(panel.getByTestId('serve-command')).toHaveText(
    `npx harness serve --spec harness:${created.harnessId}@1 --port 8000`,
  );
  await panel.getByTestId('serve-start').click();
  await expect(panel.getByTestId('serve-live')).toContainText('0 sessions open');
  const url = (await panel.getByTestId('serve-url').textContent())!.trim();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  await expect(panel.getByTestId('serve-python')).toContainText(`url = "${url}"`);

  // A trainer connects over /ws as OpenEnv's client does: the count goes live.
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  const reply = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'reset', data: { seed: 3 } }));
  expect(JSON.parse(await reply)).toMatchObject({ type: 'observation' });
  await expect(panel.getByTestId('serve-live')).toContainText(
    '1 session open · 1 episode · 0 steps',
  );
  await snap(page, 'openenv-serve-panel');
  ws.close();
  await expect(panel.getByTestId('serve-live')).toContainText('0 sessions open');
  await panel.getByTestId('serve-stop').click();
  await expect(panel.getByTestId('serve-start')).toBeVisible();
});
