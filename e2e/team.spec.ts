// Team mode journey: the spec starts its own studio server in team mode (AUTH_SECRET set, a fresh
// embedded database, the first admin from configuration) on the build the main webServer made.
// An admin invites a researcher and a viewer; the researcher launches a run from the task page;
// the viewer cannot; a share link opens the run read-only in a fresh browser context.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { snap, trpcMutation, trpcQuery, waitForRun } from './helpers.ts';

const PORT = 3211;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '.data-e2e-team';
const ADMIN = { email: 'admin@team.test', password: 'admin-password-1' };

let server: ChildProcess | undefined;

test.use({ baseURL: BASE });

test.beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn('npx', ['tsx', 'server/main.ts'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      NO_DEMO: 'true',
      ROLLOUT_CONCURRENCY: '2',
      NEXT_TELEMETRY_DISABLED: '1',
      AUTH_SECRET: 'e2e-team-secret-0123456789abcdefghijklmnop',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });
  let log = '';
  server.stdout?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  server.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`team server exited: ${log}`);
    const ok = await fetch(`${BASE}/signin`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`team server did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  // tsx runs node as a child: signal the whole group so nothing keeps the port.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(DATA_DIR, { recursive: true, force: true });
});

async function signIn(page: Page, email: string, password: string, next = '/runs') {
  await page.goto(next);
  await expect(page).toHaveURL(/\/signin\?next=/);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, '\\$&')}$`));
}

async function join(page: Page, token: string, email: string, password: string) {
  await page.goto(`/invite/${token}`);
  await page.locator('#name').fill(email.split('@')[0]!);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(`${BASE}/`);
}

test('team mode: a researcher launches, a viewer cannot, a share link opens the run read-only', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // The admin signs in and invites a researcher and a viewer into the default project.
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, ADMIN.email, ADMIN.password);
  const me = await trpcQuery<{ mode: string; projectId: string; role: string }>(
    adminPage,
    'auth.me',
  );
  expect(me).toMatchObject({ mode: 'team', role: 'admin' });
  const invite = async (role: string) =>
    (
      await trpcMutation<{ token: string }>(adminPage, 'auth.createInvite', {
        projectId: me.projectId,
        role,
      })
    ).token;
  const researcherInvite = await invite('researcher');
  const viewerInvite = await invite('viewer');

  // The researcher joins through the invite link and launches a run from the task page.
  const researcher = await (await browser.newContext()).newPage();
  await join(researcher, researcherInvite, 'researcher@team.test', 'researcher-pass-1');
  await researcher.goto('/tasks/household/eval_seen-001');
  await researcher.getByTestId('launch-policy').selectOption('scripted:household-no-open');
  await researcher.getByTestId('launch-k').fill('2');
  await researcher.getByTestId('launch-run').click();
  await expect(researcher).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runId = researcher.url().split('/').pop()!;
  const run = await waitForRun(researcher, runId, 120_000);
  expect(run.episodesDone).toBe(2);
  await expect(researcher.getByTestId('progress')).toHaveText('2 / 2');

  // The viewer joins too, sees the run, but launching is refused.
  const viewer = await (await browser.newContext()).newPage();
  await join(viewer, viewerInvite, 'viewer@team.test', 'viewer-pass-123');
  await viewer.goto(`/runs/${runId}`);
  await expect(viewer.getByTestId('progress')).toHaveText('2 / 2');
  await viewer.goto('/tasks/household/eval_seen-001');
  await viewer.getByTestId('launch-policy').selectOption('scripted:household-no-open');
  // The buttons are off, with the reason in words (not an error naming `runs.launch`).
  await expect(viewer.getByTestId('launch-run')).toBeDisabled();
  await expect(viewer.getByTestId('rig-launch')).toBeDisabled();
  await expect(viewer.getByTestId('launch-blocked')).toHaveText(
    'You are a viewer in this project: to launch runs you need the researcher role (an admin can give it).',
  );
  await expect(viewer.locator('body')).not.toContainText('runs.launch');
  await expect(viewer).toHaveURL(/\/tasks\/household\/eval_seen-001$/);
  const refused = await viewer.request.post('/api/trpc/runs.launch', {
    data: {
      policy: 'scripted:household-no-open',
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
    },
  });
  expect(refused.status()).toBe(403);
  await snap(viewer, 'team-viewer-refused');

  // A share link opens the run in a fresh context with no account, read-only.
  const share = await trpcMutation<{ path: string }>(researcher, 'auth.createShare', {
    kind: 'run',
    ids: [runId],
  });
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(share.path);
  await expect(guest).toHaveURL(`${BASE}/runs/${runId}`);
  await expect(guest.getByTestId('progress')).toHaveText('2 / 2');
  await expect(guest.getByTestId('episode-row')).toHaveCount(2);
  const guestLaunch = await guest.request.post('/api/trpc/runs.launch', {
    data: {
      policy: 'scripted:household-no-open',
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
    },
  });
  expect(guestLaunch.status()).toBe(403);
  const guestList = await guest.request.get('/api/trpc/runs.list');
  expect(guestList.status()).toBe(403);
  await snap(guest, 'team-share-link');

  // The viewer sees a version's decision buttons disabled, with the reason (not an API error).
  const made = await trpcMutation<{ harnessId: string }>(researcher, 'harnesses.create', {
    name: 'Viewer check',
    spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
  });
  await viewer.goto(`/harnesses/${made.harnessId}/review`);
  await expect(viewer.getByTestId('decision-rights')).toHaveText(
    'Deciding needs the researcher role; you are a viewer in this project.',
  );
  await expect(viewer.getByTestId('approve')).toBeDisabled();
  await expect(viewer.getByTestId('reject')).toBeDisabled();

  // The admin's audit trail shows who launched the run.
  await adminPage.goto('/audit');
  await expect(adminPage.getByTestId('audit-row').filter({ hasText: 'runs.launch' })).toHaveCount(
    1,
  );
});
