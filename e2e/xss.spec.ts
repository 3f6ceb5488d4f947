// Hostile text everywhere a user or a hook can put it — a harness name, its version note, a decision
// reason, an observation a hook rewrites, the message of an error a hook throws — must reach every
// page as text: shown literally, never parsed as markup, never run.
import { expect, test } from '@playwright/test';
import { base, launchRun, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

const MARK = 'xss-probe';
const payload = (where: string) =>
  `<img src=x onerror="window.__xss=['${where}']"><script>window.__xss=['${where}']</script>${MARK}-${where}`;

test('hostile text is shown as text on every page and never runs', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto('/');
  const task = 'eval_seen-010';
  const env = base('household', task).env;
  const observation = payload('observation');
  const thrown = payload('hook-error');
  const rewrite = `export function filterObservation(o) {
  return { ...o, text: ${JSON.stringify(observation)} + ' ' + o.text };
}`;
  // Saving runs a dry episode (reset and 3 steps), so the hook throws only from the 5th observation.
  const throwing = `let seen = 0;
export function filterObservation(o) { if (++seen > 4) throw new Error(${JSON.stringify(thrown)}); return o; }`;
  const okSpec = { version: 1, env: { type: 'contract', code: rewrite, env } };
  const errSpec = { version: 1, env: { type: 'contract', code: throwing, env } };
  type Created = { harnessId: string; version: { id: string } };
  const rewritten = await trpcMutation<Created>(page, 'harnesses.create', {
    name: payload('name'),
    note: payload('version-note'),
    spec: okSpec,
  });
  const broken = await trpcMutation<Created>(page, 'harnesses.create', {
    name: `broken ${MARK}`,
    spec: errSpec,
  });
  const launch = (spec: unknown, created: Created) =>
    launchRun(page, {
      spec,
      harnessVersionId: created.version.id,
      policy: 'scripted:household-no-open',
      k: 1,
      kind: 'validation',
    });
  const okRun = await launch(okSpec, rewritten);
  const errRun = await launch(errSpec, broken);
  await waitForRun(page, okRun);
  await waitForRun(page, errRun);
  await trpcMutation(page, 'harnesses.decide', {
    harnessVersionId: rewritten.version.id,
    decision: 'reject',
    reason: payload('decision-reason'),
  });
  type Episodes = { items: { id: string }[] };
  const [okEpisode] = (await trpcQuery<Episodes>(page, 'runs.episodes', { runId: okRun })).items;
  const [errEpisode] = (await trpcQuery<Episodes>(page, 'runs.episodes', { runId: errRun })).items;
  if (!okEpisode || !errEpisode) throw new Error('each run should have recorded its episode');

  const visits: [string, string][] = [
    ['/harnesses', 'name'],
    [`/harnesses/${rewritten.harnessId}`, 'name'],
    [`/harnesses/${rewritten.harnessId}/review?version=1`, 'name'],
    [`/harnesses/${rewritten.harnessId}/review?version=1`, 'decision-reason'],
    [`/runs/${okRun}/episodes/${okEpisode.id}`, 'observation'],
    [`/runs/${errRun}`, 'hook-error'],
    [`/runs/${errRun}/episodes/${errEpisode.id}`, 'hook-error'],
  ];
  for (const [url, where] of visits) {
    await page.goto(url);
    await expect(page.getByText(`${MARK}-${where}`).first()).toBeVisible();
    // The raw markup is on screen as characters, so it was escaped, not parsed.
    await expect(page.getByText('<img src=x').first()).toBeVisible();
    expect(await page.evaluate(() => (window as { __xss?: string[] }).__xss ?? [])).toEqual([]);
    expect(await page.locator(`img[src="x"]`).count()).toBe(0);
  }
  expect(dialogs).toEqual([]);
});
