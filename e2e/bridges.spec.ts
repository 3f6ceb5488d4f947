// Every bridge in the studio: it is in the task picker, its task page shows the goal and tools, a
// baseline of its scripted policy launches from that page, completes on the run page, and a
// trajectory opens with its steps. Then a Chain across two bridges (household then toy24), built
// in the graph editor from imported JSON as a user would, shows a verdict per leg.
import { expect, type Page, test } from '@playwright/test';
import { snap, trpcQuery, waitForRun } from './helpers.ts';

interface TaskDetail {
  task: { id: string; goal: string };
  tools: { name: string }[];
}
interface Episode {
  id: string;
  steps: number;
  outcome: string | null;
  legVerdicts: { leg: number; success: boolean }[] | null;
}

const BRIDGES = [
  { bridge: 'toy24', task: '4-7-8-8', policy: 'scripted:toy24-exact' },
  { bridge: 'household', task: 'eval_seen-001', policy: 'scripted:household-explorer' },
  {
    bridge: 'code-repair',
    task: 'interval__flip-comparison-L6',
    policy: 'scripted:code-repair-careful',
  },
  { bridge: 'spreadsheet', task: 'row-sum-00', policy: 'scripted:spreadsheet-formulas' },
  { bridge: 'webshop', task: 'ws-0000', policy: 'scripted:webshop-careful' },
  { bridge: 'remote', task: '4-7-8-8', policy: 'scripted:remote-exact' },
] as const;

/** From the run page (once the run is done) to its first episode's trajectory. */
async function openTrajectory(page: Page, runId: string): Promise<Episode> {
  const episodes = await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId });
  const episode = episodes.items[0]!;
  expect(episode.steps).toBeGreaterThan(0);
  await page.getByTestId('episode-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/episodes/${episode.id}`));
  await expect(page.getByTestId('step-list')).toHaveAttribute('data-count', String(episode.steps));
  await expect(page.getByTestId('step-row').first()).toBeVisible();
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '0');
  await expect(page.getByTestId('episode-outcome')).toHaveText(episode.outcome ?? '');
  return episode;
}

for (const b of BRIDGES) {
  test(`${b.bridge}: task picker, task page, baseline run, trajectory`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    await page.getByTestId(`bridge-${b.bridge}`).click();
    await expect(page).toHaveURL(new RegExp(`bridge=${b.bridge}`));
    await page.getByTestId('filter-text').fill(b.task);
    await page
      .getByTestId('task-link')
      .filter({ hasText: new RegExp(`^${b.task}$`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${b.bridge}/${b.task}$`));

    const detail = await trpcQuery<TaskDetail>(page, 'tasks.byId', {
      bridge: b.bridge,
      task: b.task,
    });
    expect(detail.tools.length).toBeGreaterThan(0);
    await expect(page.getByTestId('task-goal')).toHaveText(detail.task.goal);
    for (const tool of detail.tools)
      await expect(page.getByTestId('task-tools')).toContainText(tool.name);

    await page.getByTestId('launch-policy').selectOption(b.policy);
    await page.getByTestId('launch-k').fill('1');
    await page.getByTestId('launch-run').click();
    await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
    const runId = page.url().split('/').pop()!;
    const run = await waitForRun(page, runId, 90_000);
    expect(run.status).toBe('completed');
    await expect(page.getByTestId('progress')).toHaveText('1 / 1');
    await expect(page.getByTestId('episode-row')).toHaveCount(1);

    const episode = await openTrajectory(page, runId);
    expect(episode.outcome === 'success' || episode.outcome === 'failure').toBe(true);
    await snap(page, `bridges-${b.bridge}`);
  });
}

test('a Chain across household and toy24 shows a verdict per leg', async ({ page }) => {
  test.setTimeout(120_000);
  const spec = {
    version: 1,
    env: {
      type: 'chain',
      mode: 'sequential',
      first: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
      second: { type: 'base', bridge: 'toy24', task: '4-7-8-8' },
    },
  };
  // A new harness from the household task page, the chain imported as JSON in the graph editor.
  await page.goto('/tasks/household/eval_seen-001');
  await page.getByTestId('new-harness').click();
  await expect(page).toHaveURL(/\/harnesses\/new/);
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(spec));
  await page.getByTestId('import-apply').click();
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-ok', 'true');
  await page.getByTestId('harness-name').fill('Household then toy24');
  await page.getByTestId('create-harness').click();
  await expect(page).toHaveURL(/\/harnesses\/[a-z0-9]+$/);

  await page.getByTestId('launch-policy').selectOption('scripted:household-explorer');
  await page.getByTestId('launch-k').fill('1');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;
  const run = await waitForRun(page, runId, 90_000);
  expect(run.status).toBe('completed');
  await expect(page.getByTestId('progress')).toHaveText('1 / 1');

  const episode = await openTrajectory(page, runId);
  // The episode list is a light select; the episode itself carries the stored verdicts.
  const stored = await trpcQuery<{ episode: Episode }>(page, 'runs.episode', { id: episode.id });
  const legs = stored.episode.legVerdicts ?? [];
  expect(legs.map((l) => l.leg)).toEqual([0, 1]);
  const shown = page.getByTestId('leg-verdict');
  await expect(shown).toHaveCount(2);
  const names = ['household:eval_seen-001', 'toy24:4-7-8-8'];
  for (const l of legs) {
    const leg = shown.nth(l.leg);
    await expect(leg).toHaveAttribute('data-success', String(l.success));
    await expect(leg).toContainText(names[l.leg]!);
    await expect(leg).toContainText(l.success ? 'success' : 'failure');
  }
  // The episode succeeds only when every leg's verifier does.
  expect(episode.outcome === 'success').toBe(legs.every((l) => l.success));
  await snap(page, 'bridges-chain-legs');
});
