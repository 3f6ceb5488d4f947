// EvoHarness journey: run a bpe(...) policy, open one of its trajectories and read the agent's
// workspace (belief, progress, experience) at any step, meta-actions marked in the step list.
import { expect, test } from '@playwright/test';
import { base, launchRun, snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

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
  await expect(panel.getByTestId('bpe-experience')).toContainText(/skills? in the store/);
  // The belief was recorded when the action was chosen: the panel says it is one observation behind.
  await expect(panel.getByTestId('bpe-belief-timing')).toContainText(
    "this step's observation appears in the next step's belief",
  );
});

interface CostTerms {
  total: number;
  rSucc: number;
  rEff: number;
  rDiv: number;
  rSpam: number;
  rInv: number;
  lambdaEff: number;
  lambdaDiv: number;
  lambdaSpam: number;
  lambdaInv: number;
}

test('a skilled bpe run with edited reward parameters; the reward term by term', async ({
  page,
}) => {
  // A skill bank from a small comparison (trajectories recorded as runs).
  const cmp = await trpcMutation<{
    rows: { source: string; bankId: string | null; skills: number }[];
  }>(page, 'skills.compare', {
    bridge: 'household',
    policy: 'scripted:household-no-open',
    envs: 2,
    evalEnvs: 1,
  });
  const bank = cmp.rows.find((r) => r.source === 'original')!;
  expect(bank.bankId).toBeTruthy();

  await page.goto('/tasks/household/eval_unseen-002');
  await page.getByTestId('launch-policy').selectOption('bpe(scripted:household-explorer)');
  await page.getByTestId('launch-k').fill('1');
  await page.getByTestId('launch-skill-bank').selectOption(bank.bankId!);
  await page.getByTestId('reward-params').locator('summary').click();
  await page.getByTestId('reward-param-update').fill('75');
  await page.getByTestId('reward-param-lambdaInv').fill('0.5');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;
  await waitForRun(page, runId);
  await expect(page.getByTestId('run-skill-bank')).toHaveAttribute(
    'href',
    `/skills/${bank.bankId}`,
  );

  // The run records the bank and the edited parameters.
  const run = await trpcQuery<{
    rewardParams: Record<string, unknown>;
    policyOptions: Record<string, unknown> | null;
  }>(page, 'runs.byId', { id: runId });
  expect(run.rewardParams).toMatchObject({ update: 75, lambdaInv: 0.5 });
  expect(run.policyOptions).toMatchObject({ skillBankId: bank.bankId });

  const episodes = await trpcQuery<{ items: Episode[] }>(page, 'runs.episodes', { runId });
  const episode = episodes.items[0]!;
  const stored = await trpcQuery<{ episode: { costReward: CostTerms } }>(page, 'runs.episode', {
    id: episode.id,
  });
  const c = stored.episode.costReward;
  // Halfway through the annealing λ_div is half of its maximum; λ_inv is the edited value.
  expect(c.lambdaDiv).toBeCloseTo(0.5);
  expect(c.lambdaInv).toBe(0.5);

  await page.goto(`/runs/${runId}/episodes/${episode.id}?step=0`);
  // The bank is the agent's experience store.
  await expect(page.getByTestId('bpe-experience')).toContainText(
    `${bank.skills} skills in the store`,
  );
  const card = page.getByTestId('cost-reward');
  await expect(card.getByTestId('reward-term')).toHaveCount(5);
  const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));
  await expect(card.getByTestId('reward-total')).toHaveText(fmt(c.total));
  const expected: [string, number, number][] = [
    ['task', c.rSucc, c.rSucc],
    ['efficiency', c.rEff, c.lambdaEff * c.rEff],
    ['diversity', c.rDiv, c.lambdaDiv * c.rDiv],
    ['spam', c.rSpam, -c.lambdaSpam * c.rSpam],
    ['invalid', c.rInv, -c.lambdaInv * c.rInv],
  ];
  for (const [term, value, contribution] of expected) {
    const row = card.locator(`[data-term="${term}"]`);
    await expect(row.getByTestId('reward-value')).toHaveText(fmt(value));
    await expect(row.getByTestId('reward-contribution')).toHaveText(fmt(contribution));
  }
  await expect(card.locator('[data-term="diversity"]').getByTestId('reward-weight')).toContainText(
    '0.500',
  );
  await expect(card).toContainText('cos(π·75/150)');
  await snap(page, 'bpe-cost-reward');
});
