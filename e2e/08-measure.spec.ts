// Measurements the studio issue asks for, taken in real Chromium against the real server:
// (1) time from an episode's end (its stored finishedAt, stamped by the worker's recorder when the
// result arrives) to its row appearing on the live run page, on a household and a webshop run;
// (2) time to interactive for a 10,000-step trajectory. Figures go to test-results/studio-bench.json.
// Targets: live p95 500 ms (asserted), trajectory 1.5 s (the bound asserted is loose).
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { launchRun, trpcQuery, waitForRun } from './helpers.ts';

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
  );
}

function spread(values: number[]) {
  return {
    n: values.length,
    p50: Math.round(quantile(values, 0.5)),
    p95: Math.round(quantile(values, 0.95)),
    max: Math.round(Math.max(...values)),
  };
}

type Probe = {
  /** When each episode's row first appeared in the page. */
  appeared: Record<string, number>;
  /** When each episode's episode_ended event reached the page's EventSource. */
  arrived: Record<string, number>;
  /**
   * When the first event of the run's live stream arrived. The stream opens (`connected`) before
   * the server reads where to start from, so only episodes that ended after its first event are
   * sure to be streamed rather than caught up by the page's reload.
   */
  streamingSince: number | null;
};

/** Timestamps, in the page, every row's first appearance and every live event's arrival. */
function installProbe() {
  const probe: Probe = { appeared: {}, arrived: {}, streamingSince: null };
  (window as unknown as { __probe: Probe }).__probe = probe;
  const scan = () => {
    for (const el of document.querySelectorAll('[data-episode-id]')) {
      const id = el.getAttribute('data-episode-id')!;
      if (!(id in probe.appeared)) probe.appeared[id] = Date.now();
    }
  };
  new MutationObserver(scan).observe(document, { subtree: true, childList: true });
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      if (!String(url).includes('runs.live')) return;
      this.addEventListener('message', (m) => {
        probe.streamingSince ??= Date.now();
        const e = JSON.parse((m as MessageEvent<string>).data) as {
          type: string;
          payload: { episodeId?: string };
        };
        const id = e.payload.episodeId;
        if (e.type === 'episode_ended' && id && !(id in probe.arrived)) {
          probe.arrived[id] = Date.now();
        }
      });
    }
  };
}

/**
 * Launches a run from its task page (the studio moves to the run page at once) and measures, for
 * every episode that ended once the page's live stream was streaming, episode end → row visible.
 * Episodes that ended before (shown by the first render, or caught up when the stream opened)
 * are not live updates and are left out.
 */
async function liveRun(
  page: Page,
  taskPath: string,
  policy: string,
  k: number,
  form: { maxSteps?: number; concurrency?: number } = {},
) {
  await page.goto(taskPath);
  await page.getByTestId('launch-policy').selectOption(policy);
  await page.getByTestId('launch-k').fill(String(k));
  if (form.maxSteps) await page.getByTestId('launch-max-steps').fill(String(form.maxSteps));
  if (form.concurrency) await page.getByTestId('launch-concurrency').fill(String(form.concurrency));
  await page.getByTestId('launch-run').click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = page.url().split('/').pop()!;
  // Waiting on the page, not by polling the server, so the measurement adds no load of its own;
  // the live indicator goes once the page has the run's final status.
  await expect(page.getByTestId('episode-count')).toHaveText(`${k} episodes`, {
    timeout: 180_000,
  });
  await expect(page.getByTestId('live-indicator')).toHaveCount(0);
  expect((await waitForRun(page, runId)).status).toBe('completed');
  await expect(page.getByTestId('episode-row')).toHaveCount(k);
  const probe = await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
  const episodes = await trpcQuery<{ items: { id: string; finishedAt: string }[] }>(
    page,
    'runs.episodes',
    { runId, limit: 1000 },
  );
  const since = probe.streamingSince ?? Number.POSITIVE_INFINITY;
  const live = episodes.items.filter((e) => Date.parse(e.finishedAt) >= since);
  const diag = `${policy}: ${Object.keys(probe.appeared).length} rows seen, ${live.length} ended after the stream's first event`;
  expect(live.length, diag).toBeGreaterThanOrEqual(10);
  // Every live episode's row appeared (the page shows them all at the end).
  for (const e of live) expect(probe.appeared[e.id], diag).toBeDefined();
  const end = (e: { finishedAt: string }) => Date.parse(e.finishedAt);
  const withEvent = live.filter((e) => probe.arrived[e.id] !== undefined);
  return {
    runId,
    endToRow: spread(live.map((e) => probe.appeared[e.id]! - end(e))),
    // Where the time went: the server's side (end → event at the page), the page's (event → row).
    endToEvent: spread(withEvent.map((e) => probe.arrived[e.id]! - end(e))),
    eventToRow: spread(withEvent.map((e) => probe.appeared[e.id]! - probe.arrived[e.id]!)),
  };
}

// A trace records the page as it runs (screencast frames, DOM snapshots): work in the very
// renderer being timed. The figures here are taken without one.
test.use({ trace: 'off' });

test('episode end to page, and a 10,000-step trajectory opening', async ({ page }) => {
  test.setTimeout(300_000);
  // (1) Live latency. Household episodes take milliseconds, so its run is a stream of events; a
  // browser-driven webshop episode takes around a second, so the page is subscribed well before
  // most of them end.
  await page.addInitScript(installProbe);
  // A household episode takes milliseconds: a run of 200 at full concurrency can end before the
  // page has subscribed. The looper, which plays out its step budget on the tasks it fails, one
  // episode at a time, keeps the run streaming for seconds, still one row every few milliseconds.
  const household = await liveRun(
    page,
    '/tasks/household/eval_seen-004',
    'scripted:household-looper',
    200,
    { maxSteps: 400, concurrency: 1 },
  );
  const webshop = await liveRun(page, '/tasks/webshop/ws-0000', 'scripted:webshop-careful', 40, {
    concurrency: 1,
  });

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
    episodeEndToPageMs: { household, webshop, target95: 500 },
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
  expect(household.endToRow.p95, 'household: episode end → row, p95 ms').toBeLessThanOrEqual(500);
  // The target is 500 ms for webshop too; on this 2-core machine the bridge's own Chromium competes
  // with the page's: its p95 measured 234–335 ms one episode at a time (785 ms two at a time), so
  // it is reported (studio-bench.json) and only gross regressions fail here.
  expect(webshop.endToRow.p95, 'webshop: episode end → row, p95 ms').toBeLessThanOrEqual(1000);
  expect(figures.trajectory10kTimeToInteractiveMs.median).toBeLessThan(5000);
});
