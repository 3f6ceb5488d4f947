// EvoHarness journey: run a bpe(...) policy, open one of its trajectories and read the agent's
// workspace (belief, progress, experience) at any step, meta-actions marked in the step list.
import { expect, test } from '@playwright/test';
import { base, launchRun, snap, trpcQuery, waitForRun } from './helpers.ts';

interface Episode {
  id: string;
  steps: number;
}
interface Step {
  index: number;
  action: { name: string; args: Record<string, unknown> };
  executedAction: unknown;
  meta?: {
    bpe?: {
      kind: string;
      verb?: string;
      workspace: { progress: { text: string; status: string }[] };
    };
  };
}

test('the BPE panel shows the workspace at the selected step', async ({ page }) => {
  const runId = await launchRun(page, {
    spec: base('household', 'eval_unseen-001'),
    policy: 'bpe(scripted:household-explorer)',
    k: 1,
    seed: 0,
  });
  await waitForRun(page, runId);
  const episodes = await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId });
  const episode = episodes.items[0]!;
  const steps = await trpcQuery<{ items: Step[] }>(page, 'runs.steps', {
    episodeId: episode.id,
    from: 0,
    limit: 100,
  });
  const commit = steps.items.find(
    (s) => s.meta?.bpe?.kind === 'meta' && s.action.name === 'commit',
  )!;
  expect(commit.executedAction).toBeNull();

  await page.goto(`/runs/${runId}/episodes/${episode.id}`);
  const metaRows = page.getByTestId('row-meta');
  await expect(metaRows.first()).toBeVisible();

  // A meta-action step: highlighted, with its feedback and the sub-goal now done.
  await page.goto(`/runs/${runId}/episodes/${episode.id}?step=${commit.index}`);
  const panel = page.getByTestId('bpe-panel');
  await expect(panel).toHaveAttribute('data-kind', 'meta');
  await expect(panel.getByTestId('bpe-meta-badge')).toHaveText('meta-action: commit');
  await expect(panel.getByTestId('bpe-meta-action')).toContainText(
    `commit[${String(commit.action.args.arg)}]`,
  );
  const done = commit.meta!.bpe!.workspace.progress.filter((p) => p.status === 'done').length;
  await expect(panel.locator('[data-testid="bpe-subgoal"][data-status="done"]')).toHaveCount(done);
  await snap(page, 'bpe-meta-step');

  // An environment step: the belief lists what the agent has seen so far.
  const envStep = steps.items.find((s) => s.index > commit.index && s.executedAction !== null)!;
  await page.keyboard.press('j');
  await page.goto(`/runs/${runId}/episodes/${episode.id}?step=${envStep.index}`);
  await expect(panel).toHaveAttribute('data-kind', 'env');
  await expect(panel.getByTestId('bpe-receptacle').first()).toBeVisible();
  await expect(panel.getByTestId('bpe-experience')).toContainText('skills in the store');
});
