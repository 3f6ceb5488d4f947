// Measurements the studio issue asks for, taken in real Chromium against the real server:
// (1) time from an episode's end (its stored finishedAt) to its row appearing on the live run page;
// (2) time to interactive for a 10,000-step trajectory. Figures go to test-results/studio-bench.json.
// The bounds asserted here are loose (the CI machine is shared); the targets are 500 ms and 1.5 s.
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { launchRun, trpcQuery, waitForRun } from './helpers.ts';

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
  );
}

test('episode end to page, and a 10,000-step trajectory opening', async ({ page }) => {
  test.setTimeout(240_000);
  // (1) Live latency: launched from the task page, so the run page is open (and subscribed)
  // before the first episodes end. A browser-driven bridge keeps each episode around a second
  // long on any machine, so the run is still in flight when the page subscribes. Every row's first appearance is timestamped in the page.
  await page.addInitScript(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __appeared: Record<string, number> }).__appeared = seen;
    const scan = () => {
      for (const el of document.querySelectorAll('[data-episode-id]')) {
        const id = el.getAttribute('data-episode-id')!;
        if (!(id in seen)) seen[id] = Date.now();
      }
    };
    new MutationObserver(scan).observe(document, { subtree: true, childList: true });
  });
  await page.goto('/tasks/webshop/ws-0000');
  await page.getByTestId('launch-policy').selectOption('scripted:webshop-careful');
  await page.getByTestId('launch-k').fill('24');
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const liveRun = page.url().split('/').pop()!;
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'pending');
  const liveSince = Date.now();
  await waitForRun(page, liveRun, 180_000);
  await expect(page.getByTestId('episode-count')).toHaveText('24 episodes', { timeout: 30_000 });
  const appeared = await page.evaluate(
    () => (window as unknown as { __appeared: Record<string, number> }).__appeared,
  );
  const episodes = await trpcQuery<{ items: { id: string; finishedAt: string }[] }>(
    page,
    'runs.episodes',
    {
      runId: liveRun,
      limit: 1000,
    },
  );
  // Rows shown by the page's first render were not live updates; every later row was.
  const firstPaint = Math.min(...Object.values(appeared));
  const latencies = episodes.items
    .filter(
      (e) =>
        appeared[e.id] !== undefined &&
        appeared[e.id]! > firstPaint + 5 &&
        Date.parse(e.finishedAt) > liveSince - 5000,
    )
    .map((e) => appeared[e.id]! - Date.parse(e.finishedAt));
  const diag = `appeared ${Object.keys(appeared).length}, after first paint ${episodes.items.filter((e) => (appeared[e.id] ?? 0) > firstPaint + 5).length}`;
  expect(latencies.length, diag).toBeGreaterThanOrEqual(10);

  // (2) A looping policy whose every action a contract blocks: a real 10,000-step trajectory.
  const longRun = await launchRun(page, {
    spec: {
      version: 1,
      env: {
        type: 'contract',
        code: "export function filterAction() { return { blocked: 'held still for a long trajectory' }; }",
        env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
      },
    },
    policy: 'scripted:household-looper',
    k: 1,
    maxSteps: 10_000,
    invalidLoopLimit: 10_000,
    kind: 'adhoc',
  });

  // Time to interactive of a 10,000-step trajectory: from navigation start until the step list
  // and the selected step are on screen; then a jump to the last step by key and by deep link.
  await waitForRun(page, longRun, 180_000);
  const [episode] = (
    await trpcQuery<{ items: { id: string; steps: number }[] }>(page, 'runs.episodes', {
      runId: longRun,
    })
  ).items;
  expect(episode!.steps).toBe(10_000);
  const ttis: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`/runs/${longRun}/episodes/${episode!.id}`);
    await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '0');
    await expect(page.getByTestId('step-list')).toHaveAttribute('data-count', '10000');
    await expect(page.getByTestId('step-row').first()).toContainText('#0');
    ttis.push(await page.evaluate(() => performance.now()));
  }
  const rows = await page.getByTestId('step-row').count();
  expect(rows).toBeLessThan(100);
  const t0 = Date.now();
  await page.goto(`/runs/${longRun}/episodes/${episode!.id}?step=9999`);
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '9999');
  const deepLinkMs = Date.now() - t0;
  await page.keyboard.press('k');
  await expect(page.getByTestId('step-detail')).toHaveAttribute('data-step', '9998');

  const figures = {
    episodeEndToPageMs: {
      n: latencies.length,
      p50: Math.round(quantile(latencies, 0.5)),
      p95: Math.round(quantile(latencies, 0.95)),
      max: Math.round(Math.max(...latencies)),
      target95: 500,
    },
    trajectory10kTimeToInteractiveMs: {
      runs: ttis.map(Math.round),
      median: Math.round(quantile(ttis, 0.5)),
      target: 1500,
    },
    trajectory10kDeepLinkLastStepMs: deepLinkMs,
    renderedRowsFor10kSteps: rows,
  };
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/studio-bench.json', `${JSON.stringify(figures, null, 2)}\n`);
  console.log('studio bench', JSON.stringify(figures));
  expect(figures.episodeEndToPageMs.p95).toBeLessThan(4000);
  expect(figures.trajectory10kTimeToInteractiveMs.median).toBeLessThan(5000);
});
