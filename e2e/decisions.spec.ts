// Journey: the approval gate holds. A person rejects a rig candidate (the gate shows why approving
// it would need a reason: outside the band); the decided candidate shows its decision instead of
// the buttons, on the rig page and on its own page, and approving it afterwards is refused by the
// API too. Then a harness version whose only validation run is all harness errors, on a task with
// no baseline: the review page still shows the run, says why approving needs a reason, and records
// the approval only with one.
import { expect, type Page, test } from '@playwright/test';
import { launchRun, snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

interface RigView {
  status: string;
  candidates: {
    id: string;
    writeError: string | null;
    decision: string | null;
    gate: { state: string; concerns: { code: string; message: string }[] };
  }[];
}

async function waitForRig(page: Page, id: string): Promise<RigView> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const rig = await trpcQuery<RigView>(page, 'rigs.byId', { id });
    if (['completed', 'failed', 'cancelled'].includes(rig.status)) return rig;
    if (Date.now() > deadline) throw new Error(`rig ${id} did not finish`);
    await page.waitForTimeout(500);
  }
}

test('a rejected candidate stays rejected; approving a version with errors needs a reason', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  // A task the other journeys leave alone; a policy that masters it, so the candidate made harder
  // lands outside the band.
  const { rigId } = await trpcMutation<{ rigId: string }>(page, 'rigs.launch', {
    task: 'household:eval_seen-016',
    policy: 'scripted:household-no-open',
    designer: 'heuristic',
    k: 4,
    maxIterations: 1,
  });
  const rig = await waitForRig(page, rigId);
  expect(rig.status).toBe('completed');
  const cand = rig.candidates.find((c) => !c.writeError && c.decision !== null);
  expect(cand).toBeDefined();
  const candidateId = cand?.id ?? '';

  // Pending: the gate says why approving would need a reason, and the buttons wait for one.
  await page.goto(`/rigs/${rigId}`);
  const card = page.getByTestId('candidate').filter({ has: page.getByTestId('decision-panel') });
  await expect(card).toHaveCount(1);
  const concerns = card.getByTestId('gate-concern');
  await expect(concerns.first()).toBeVisible();
  expect(await concerns.allTextContents()).toEqual(cand?.gate.concerns.map((c) => c.message));
  await expect(card.getByTestId('approve')).toBeDisabled();
  await expect(card.getByTestId('reject')).toBeDisabled();
  await card.getByTestId('decision-reason').fill('hides the target too well');
  await card.getByTestId('reject').click();

  // Decided: the decision with who and why replaces the buttons.
  const decided = card.getByTestId('approval');
  await expect(decided).toContainText('rejected by local');
  await expect(decided.getByTestId('current-reason')).toHaveText('hides the target too well');
  await expect(card.getByTestId('approve')).toHaveCount(0);
  await expect(card.getByTestId('reject')).toHaveCount(0);
  await expect(card.getByTestId('reverse-open')).toBeVisible();
  await snap(page, 'decisions-candidate-rejected');

  // Approving it afterwards is refused by the API, in one sentence, and nothing changes.
  const refused = await page.request.post('/api/trpc/rigs.review', {
    data: { candidateId, decision: 'approve', reason: 'changed my mind' },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain('is already rejected (by local');
  await page.reload();
  await expect(card.getByTestId('approval')).toContainText('rejected by local');
  await expect(card.getByTestId('library-link')).toHaveCount(0);

  // The candidate's own page offers no approval either: it shows the rejection.
  await page.goto(`/rigs/${rigId}/candidates/${candidateId}`);
  const panel = page.getByTestId('candidate-decision-card');
  await expect(panel.getByTestId('decision-current')).toContainText('rejected by local');
  await expect(page.getByTestId('approve')).toHaveCount(0);
  await expect(page.getByText('Approve to the library')).toHaveCount(0);

  // A version whose only validation run is 4 of 4 harness errors, on a task with no baseline.
  const task = 'eval_seen-013';
  const spec = {
    version: 1,
    env: {
      type: 'contract',
      // It passes the editor's dry episode (reset and 3 steps) and throws from the 5th observation on.
      code: "let seen = 0;\nexport function filterObservation(o) { if (++seen > 4) throw new Error('boom'); return o; }",
      env: { type: 'base', bridge: 'household', task },
    },
  };
  const created = await trpcMutation<{ harnessId: string; version: { id: string } }>(
    page,
    'harnesses.create',
    { name: 'Throws on every observation', spec },
  );
  const runId = await launchRun(page, {
    spec,
    harnessVersionId: created.version.id,
    kind: 'validation',
    policy: 'scripted:household-no-open',
    k: 4,
  });
  const run = await waitForRun(page, runId);
  expect(run.metrics.errors).toBe(4);

  await page.goto(`/harnesses/${created.harnessId}/review?version=1`);
  // The candidate's run is shown though there is no baseline to compare it with.
  await expect(page.getByTestId('no-baseline')).toBeVisible();
  await expect(page.getByTestId('compare-card-1')).toContainText(runId);
  await expect(page.getByTestId('review-candidate')).toHaveValue(runId);
  await expect(page.getByTestId('gate-concern')).toHaveText([
    `4 of 4 episodes of its validation run ${runId.slice(-8)} ended in errors`,
  ]);
  await expect(page.getByTestId('approve')).toBeDisabled();
  const blank = await page.request.post('/api/trpc/harnesses.decide', {
    data: { harnessVersionId: created.version.id, decision: 'approve', reason: '' },
  });
  expect(blank.status()).toBe(400);
  expect(await blank.text()).toContain('approving needs a reason: 4 of 4 episodes');

  await page
    .getByTestId('decision-reason')
    .fill('The hook is meant to fail: a harness-error demo.');
  await page.getByTestId('approve').click();
  const current = page.getByTestId('decision-current');
  await expect(current).toContainText('approved by local');
  await expect(current).toContainText('Approved despite: 4 of 4 episodes');
  await expect(page.getByTestId('approve')).toHaveCount(0);
  await expect(page.getByTestId('decision')).toHaveCount(1);
  await snap(page, 'decisions-version-approved-with-reason');

  const again = await page.request.post('/api/trpc/harnesses.decide', {
    data: { harnessVersionId: created.version.id, decision: 'reject', reason: 'no' },
  });
  expect(again.status()).toBe(409);
  await page.goto(`/harnesses/${created.harnessId}`);
  await expect(page.getByTestId('harness-status')).toHaveText('approved');
  await expect(page.getByTestId('version-state')).toHaveText('approved');
});
