// Journey: rig a task from its page, watch EnvRigger progress live, read the diagnosis, follow an
// evidence badge to the cited step of the baseline trajectory, approve the accepted candidate.
import { expect, test } from '@playwright/test';
import { snap, trpcQuery } from './helpers.ts';

interface RigView {
  status: string;
  acceptedCandidateId: string | null;
  baselineRunId: string | null;
  diagnoses: { label: string; evidence: { episodeId: string; step: number }[] }[];
}

test('launch a rig from a task page, follow a cited step, approve the accepted candidate', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/tasks/household/eval_seen-004');
  const form = page.getByTestId('launch-rig');
  await form.getByTestId('rig-policy').selectOption('scripted:household-no-transform');
  await form.getByTestId('rig-designer').selectOption('heuristic');
  await form.getByTestId('rig-launch').click();
  await expect(page).toHaveURL(/\/rigs\/[a-z0-9]+$/);
  const rigId = page.url().split('/').pop() ?? '';

  // Live: the timeline moves on without a reload, and the rig completes.
  await expect(page.getByTestId('rig-timeline')).toBeVisible();
  await expect(page.getByTestId('diagnosis-label')).toHaveText('skips-required-transformation', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('rig-status')).toHaveText('completed', { timeout: 180_000 });
  await expect(page.getByTestId('stage-validate')).toHaveAttribute('data-state', 'done');
  const rig = await trpcQuery<RigView>(page, 'rigs.byId', { id: rigId });
  expect(rig.acceptedCandidateId).not.toBeNull();

  // The accepted candidate sits inside the band on its gauge.
  const accepted = page.locator('[data-testid="candidate"][data-decision="accept"]');
  await expect(accepted).toHaveCount(1);
  await expect(accepted.getByTestId('candidate-gauge')).toHaveAttribute('data-in-band', 'true');
  await snap(page, 'rigger-completed');

  // A badge on the diagnosis opens the cited step in the trajectory viewer.
  const cited = rig.diagnoses[0]?.evidence[0];
  expect(cited).toBeDefined();
  await page.getByTestId('evidence-badge').first().click();
  await expect(page).toHaveURL(
    new RegExp(`/runs/${rig.baselineRunId}/episodes/${cited?.episodeId}\\?step=${cited?.step}$`),
  );
  await page.goBack();

  // A person approves the accepted candidate; the approval is recorded beside the decision.
  await accepted.getByTestId('approve').click();
  await expect(accepted.getByTestId('approval')).toHaveText(/approved by/);
});
