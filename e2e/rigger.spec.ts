// Journey: rig a task from its page, watch EnvRigger progress live, read the diagnosis and the quote
// on each evidence chip, follow a chip to the cited step of the baseline trajectory (where the quote
// is), approve the accepted candidate, find it in the task's harness library, and open it in the
// graph editor.
import { expect, test } from '@playwright/test';
import { snap, trpcQuery } from './helpers.ts';

interface RigView {
  status: string;
  candidates: {
    id: string;
    spec: { env: { type: string } };
    library: { harnessId: string; version: number } | null;
  }[];
  acceptedCandidateId: string | null;
  baselineRunId: string | null;
  diagnoses: {
    label: string;
    description: string;
    evidence: { episodeId: string; step: number; quote?: string }[];
    check: { removed: unknown[] } | null;
  }[];
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

  // Each evidence chip shows the verbatim quote of the step it cites; the checker passed it all.
  const diagnosis = rig.diagnoses[0];
  const cited = diagnosis?.evidence[0];
  expect(cited?.quote).toBeTruthy();
  const chips = page.getByTestId('evidence-badge');
  await expect(chips).toHaveCount(diagnosis?.evidence.length ?? 0);
  await expect(chips.first().getByTestId('evidence-quote')).toHaveText(cited?.quote ?? '');
  await expect(page.getByTestId('diagnosis-description')).toHaveText(diagnosis?.description ?? '');
  await expect(page.getByTestId('diagnosis-check-summary')).toContainText(
    `${diagnosis?.evidence.length} quote`,
  );
  await expect(page.getByTestId('diagnosis-removed')).toHaveCount(0);
  // The chip opens the cited step in the trajectory viewer, and the quote is there.
  await chips.first().click();
  await expect(page).toHaveURL(
    new RegExp(`/runs/${rig.baselineRunId}/episodes/${cited?.episodeId}\\?step=${cited?.step}$`),
  );
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', String(cited?.step));
  await expect(page.getByTestId('step-detail')).toContainText(cited?.quote ?? '');
  await page.goBack();

  // A person approves the accepted candidate; the approval is recorded beside the decision.
  await accepted.getByTestId('approve').click();
  await expect(accepted.getByTestId('approval')).toHaveText(/approved by/);

  // Approval filed it in the task's harness library as an approved, immutable version.
  await expect(accepted.getByTestId('library-link')).toHaveText(/harness library \(v1\)/);
  const after = await trpcQuery<RigView>(page, 'rigs.byId', { id: rigId });
  const saved = after.candidates.find((c) => c.id === after.acceptedCandidateId);
  expect(saved?.library).not.toBeNull();
  const harnessId = saved?.library?.harnessId ?? '';
  await page.goto('/tasks/household/eval_seen-004');
  const library = page.getByTestId('task-harnesses');
  const entry = library.getByTestId('task-harness').filter({ hasText: 'EnvRigger' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('approved');
  await page.goto('/harnesses');
  const row = page.getByTestId('harness-row').filter({
    has: page.locator(`a[href="/harnesses/${harnessId}"]`),
  });
  await expect(row).toContainText('household:eval_seen-004');
  await expect(row).toContainText('approved');

  // "Open in editor" shows the candidate's stack as a graph, on its library version.
  await page.goto(`/rigs/${rigId}`);
  await accepted.getByTestId('open-in-editor').click();
  await expect(page).toHaveURL(new RegExp(`/harnesses/${harnessId}\\?version=1$`));
  await expect(page.getByTestId('graph-canvas')).toBeVisible();
  await expect(page.getByTestId('current-version')).toHaveText('v1');
  await expect(page.getByTestId('node-base').first()).toBeVisible();
  const top = saved?.spec.env.type ?? 'base';
  await expect(page.getByTestId(`node-${top}`).first()).toBeVisible();
  await expect(page.getByTestId('spec-status')).toBeVisible();
  await snap(page, 'rigger-candidate-in-editor');

  // A candidate nobody approved opens in the editor from the rig (its spec, not yet in the library).
  const other = after.candidates.find((c) => !c.library && c.id !== after.acceptedCandidateId);
  if (other) {
    await page.goto(`/rigs/${rigId}/candidates/${other.id}`);
    await expect(page.getByTestId('graph-canvas')).toBeVisible();
    await expect(page.getByTestId(`node-${other.spec.env.type}`).first()).toBeVisible();
  }
});
