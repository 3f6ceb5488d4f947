// Journey 2: launch a baseline run from the task page, find it in the run list with its success rate
// and failure distribution, and read its trajectories step by step.
import { expect, test } from '@playwright/test';
import { FAILURE_LABEL, launchRun, pct, snap, trpcQuery, waitForRun } from './helpers.ts';

interface Episode {
  id: string;
  steps: number;
  outcome: string;
}
interface Step {
  index: number;
  action: { name: string; args: Record<string, unknown> };
  blocked?: string;
  observation: { text: string };
  rawObservation: { text: string } | null;
  info: { admissibleCommands?: string[] };
}

test('launch a baseline run and read a trajectory', async ({ page }) => {
  await page.goto('/tasks/household/eval_seen-001');
  await page.getByTestId('launch-policy').selectOption('scripted:household-no-open');
  await page.getByTestId('launch-k').fill('6');
  await page.getByTestId('launch-seed').fill('3');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;

  const run = await waitForRun(page, runId);
  await expect(page.getByTestId('progress')).toHaveText('6 / 6');
  await expect(page.getByTestId('success-rate')).toHaveText(pct(run.metrics.successRate));
  await expect(page.getByTestId('episode-row')).toHaveCount(6);

  // The run list shows the same numbers the run stored.
  await page.goto('/runs');
  const row = page.locator(`[data-run-id="${runId}"]`);
  await expect(row.getByTestId('run-success')).toHaveText(pct(run.metrics.successRate));
  for (const [category, n] of Object.entries(run.metrics.failureDistribution)) {
    if (n > 0) await expect(row).toContainText(`${FAILURE_LABEL[category]} ${n}`);
  }
  await snap(page, '02-run-list');

  // A trajectory: the step list holds every agent step; j/k move and the URL follows.
  const episodes = await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId });
  const longest = [...episodes.items].sort((a, b) => b.steps - a.steps)[0]!;
  expect(longest.steps).toBeGreaterThan(3);
  await page.goto(`/runs/${runId}/episodes/${longest.id}`);
  await expect(page.getByTestId('step-list')).toHaveAttribute('data-count', String(longest.steps));
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '0');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/step=2/);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '2');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/step=1/);

  // Deep link to a step: the detail shows that step's stored action and observation.
  const steps = await trpcQuery<{ items: Step[] }>(page, 'runs.steps', {
    episodeId: longest.id,
    from: 0,
    limit: 10,
  });
  const third = steps.items[3]!;
  await page.goto(`/runs/${runId}/episodes/${longest.id}?step=3`);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '3');
  await expect(page.getByTestId('agent-action')).toHaveText(
    String(Object.values(third.action.args)[0]),
  );
  await expect(page.getByTestId('observation')).toHaveText(third.observation.text);
  await expect(page.getByTestId('state-view')).toContainText('"agent"');
  // The commands the environment listed after the step, as stored (interned per episode) and shown.
  const listed = third.info.admissibleCommands ?? [];
  expect(listed).toEqual(expect.arrayContaining(['look', 'inventory']));
  await expect(page.getByTestId('admissible-commands').locator('code')).toHaveText(listed);
  await snap(page, '02-trajectory');

  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
});

test('a harnessed trajectory shows blocked actions and raw vs filtered observations by layer', async ({
  page,
}) => {
  await page.goto('/');
  const code = `export function filterAction(action) {
  if (String(action.args.command).startsWith('open ')) return { blocked: 'opening is switched off here' };
  return action;
}
export function filterObservation(o) {
  return { text: o.text.replace('You arrive at', 'Now at') };
}`;
  const runId = await launchRun(page, {
    spec: {
      version: 1,
      env: {
        type: 'contract',
        code,
        env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
      },
    },
    policy: 'scripted:household-explorer',
    k: 2,
    maxSteps: 20,
    kind: 'adhoc',
  });
  await waitForRun(page, runId);
  const episodes = await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId });
  let found: { episode: Episode; flags: { blocked: number[]; changed: number[] } } | undefined;
  for (const episode of episodes.items) {
    const flags = await trpcQuery<{ blocked: number[]; changed: number[] }>(
      page,
      'runs.stepFlags',
      { episodeId: episode.id },
    );
    if (flags.blocked.length > 0 && flags.changed.length > 0) {
      found = { episode, flags };
      break;
    }
  }
  expect(found, 'an episode with a blocked and a filtered step').toBeDefined();
  const { episode, flags } = found!;

  await page.goto(`/runs/${runId}/episodes/${episode.id}?filter=blocked`);
  await expect(page.getByTestId('step-list')).toHaveAttribute(
    'data-count',
    String(flags.blocked.length),
  );
  await expect(page.getByTestId('row-blocked').first()).toBeVisible();
  await expect(page.getByTestId('blocked-reason')).toContainText('opening is switched off here');
  await expect(page.getByTestId('blocked-reason')).toContainText('contract at env');

  const changedStep = flags.changed.find((i) => !flags.blocked.includes(i))!;
  await page.goto(`/runs/${runId}/episodes/${episode.id}?filter=changed&step=${changedStep}`);
  await expect(page.getByTestId('observation-changed-by')).toContainText('contract at env');
  const [step] = (
    await trpcQuery<{ items: Step[] }>(page, 'runs.steps', {
      episodeId: episode.id,
      from: changedStep,
      limit: 1,
    })
  ).items;
  await expect(page.getByTestId('filtered-observation')).toHaveText(step!.observation.text);
  await expect(page.getByTestId('raw-observation')).toHaveText(step!.rawObservation!.text);
  await snap(page, '02-trajectory-diff');
});
