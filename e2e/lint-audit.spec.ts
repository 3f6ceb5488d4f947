// Solvability lint and the verifier audit, as a researcher meets them: the graph editor proves the
// harness on screen solvable and plays the witness, then refutes a Contract that blocks `take`,
// naming the node and the step; the audit page catches a broken verifier (the `lockbox-lax`
// fixture, whose evaluate ignores the goal), links to the probe episode that exposed it, and the
// task picker marks that bridge; a run on it warns that rewards and verdicts disagree.
import { expect, type Page, test } from '@playwright/test';
import { base, launchRun, snap, trpcQuery } from './helpers.ts';

const TASK = 'eval_seen-004';

async function importSpec(page: Page, spec: unknown): Promise<void> {
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(spec));
  await page.getByTestId('import-apply').click();
}

const lint = (page: Page) => page.getByTestId('lint-status');

test('the editor proves the harness solvable, plays the witness, and refutes a blocked verb', async ({
  page,
}) => {
  await page.goto(`/harnesses/new?task=household%3A${TASK}`);
  await expect(page.getByTestId('spec-status')).toHaveAttribute('data-state', 'valid');
  await expect(lint(page)).toHaveAttribute('data-solvable', 'proved');
  await expect(lint(page)).toContainText("proved by the oracle's plan");

  // The witness plays back step by step: what the agent typed and what it was shown.
  await page.getByTestId('play-witness').click();
  const player = page.getByTestId('witness-player');
  await expect(player).toContainText('Your task is to:');
  // It plays by itself; paused, it steps by hand; Play goes on to the winning step.
  await expect(page.getByTestId('witness-step').first()).toBeVisible();
  await page.getByTestId('witness-play').click();
  const shown = Number(await player.getAttribute('data-shown'));
  if ((await player.getAttribute('data-done')) === 'false') {
    await page.getByTestId('witness-next').click();
    await expect(page.getByTestId('witness-step')).toHaveCount(shown + 1);
    await page.getByTestId('witness-play').click();
  }
  await expect(player).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('witness-step').last()).toContainText('reward 1');

  // A Contract that refuses every `take`: unsolvable, and the finding names the node and the step.
  const code =
    "export function filterAction(a) {\n  if (/^take /.test(a.args.command)) return { blocked: 'No taking here.' };\n  return a;\n}\n";
  await importSpec(page, {
    version: 1,
    env: { type: 'contract', code, env: base('household', TASK).env },
  });
  await expect(lint(page)).toHaveAttribute('data-solvable', 'refuted');
  const finding = page.getByTestId('lint-finding').first();
  await expect(finding).toHaveAttribute('data-rule', 'contract-blocks-verb');
  await expect(finding).toHaveAttribute('data-path', 'env');
  await expect(finding).toContainText(/step \d+ — blocks a needed verb: blocks "take"/);
  await snap(page, 'lint-refuted');
});

test('the audit page catches a verifier that ignores the goal; the task picker marks its bridge', async ({
  page,
}) => {
  await page.goto('/audits');
  for (const bridge of ['lockbox-lax', 'lockbox']) {
    await page.getByTestId('audit-bridge').selectOption(bridge);
    await page.getByTestId('run-audit').click();
    await expect(page.getByTestId(`audit-bridge-${bridge}`)).toBeVisible({ timeout: 30_000 });
  }
  const lax = page.getByTestId('audit-bridge-lockbox-lax');
  await expect(lax).toHaveAttribute('data-passed', 'false');
  await expect(lax.getByTestId('audit-verdict')).toHaveText('2 suspicious tasks');
  await expect(page.getByTestId('audit-bridge-lockbox')).toHaveAttribute('data-passed', 'true');
  const row = lax.getByTestId('audit-row').first();
  await expect(row).toHaveAttribute('data-suspicious', 'true');
  await expect(row.getByTestId('audit-cell-gold')).toHaveAttribute('data-status', 'pass');
  await expect(row.getByTestId('audit-cell-empty')).toHaveAttribute('data-status', 'fail');
  await expect(row).toContainText('empty passes: a no-op policy is judged a success');
  await snap(page, 'audit-page');

  // The cell links to the probe episode that exposed it: a no-op judged a success.
  await row.getByTestId('audit-episode-empty').click();
  await expect(page).toHaveURL(/\/runs\/[^/]+\/episodes\//);
  await expect(page.getByTestId('step-list')).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('episode-outcome')).toHaveText('success');

  await page.goto('/');
  await expect(
    page.getByTestId('bridge-lockbox-lax').getByTestId('bridge-audit-failed'),
  ).toContainText('Verifier audit failed: 2 of 2 tasks suspicious');
  await expect(page.getByTestId('bridge-lockbox').getByTestId('bridge-audit-passed')).toBeVisible();
});

test('a run whose rewards and verdicts disagree warns on its page, with the episodes', async ({
  page,
}) => {
  // Any agent on the broken verifier: whatever it does is judged a success, and paid nothing.
  const runId = await launchRun(page, {
    spec: base('lockbox-lax', 'gem-in-box'),
    policy: 'scripted:toy24-random',
    k: 2,
    maxSteps: 3,
  });
  await page.goto(`/runs/${runId}`);
  const warning = page.getByTestId('reward-verdict-warning');
  await expect(warning).toContainText('Reward and verdict disagree in 2 of 2 scored episodes');
  await expect(warning.getByTestId('disagreeing-episode')).toHaveCount(2);
  const stored = await trpcQuery<{ total: number }>(page, 'audits.disagreements', { runId });
  expect(stored.total).toBe(2);
  await warning.getByTestId('disagreeing-episode').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/episodes/`));
});
