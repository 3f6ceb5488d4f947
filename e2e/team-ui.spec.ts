// Issue 17 §1, "Done when": a team journey done entirely through the page. The spec starts its own
// studio in team mode (fresh embedded database, first admin from configuration). The admin invites
// a researcher from the members page; the researcher accepts the link and launches a run; the
// admin shares the run; a visitor without an account sees it read-only with a banner and a reduced
// navigation; the admin revokes the link and the link is dead. Along the way: the user menu, the
// last admin's protection, the audit with emails, filters and links, sign-out, and the start log.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { snap, trpcMutation } from './helpers.ts';

const PORT = 3213;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '.data-e2e-team-ui';
const ADMIN = { email: 'lead@team-ui.test', password: 'lead-password-1' };
const RESEARCHER = { email: 'ada@team-ui.test', password: 'ada-password-12' };

let server: ChildProcess | undefined;
let log = '';

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
      AUTH_SECRET: 'e2e-team-ui-secret-0123456789abcdefghijklmn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });
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
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(DATA_DIR, { recursive: true, force: true });
});

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/runs');
  await expect(page).toHaveURL(/\/signin\?next=/);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await expect(page).toHaveURL(`${BASE}/runs`);
}

test('the team journey through the page: invite, accept, launch, share, banner, revoke, dead link', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // The start log names the mode and that an admin exists.
  expect(log).toContain('mode: team');
  expect(log).toContain('an admin exists');

  // The admin's menu: who, which role, where; the members page from it.
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.getByTestId('user-menu').click();
  await expect(admin.getByTestId('user-email')).toHaveText(ADMIN.email);
  await expect(admin.getByTestId('user-role')).toContainText('admin in Default');
  await expect(admin.getByTestId('project-switcher')).toHaveValue(/.+/);
  await admin.getByTestId('menu-members').click();
  await expect(admin).toHaveURL(`${BASE}/admin`);

  // The last admin cannot step down.
  const self = admin.getByTestId('member-row').filter({ hasText: ADMIN.email });
  await self.getByTestId('member-role').selectOption('viewer');
  await expect(admin.getByTestId('members-error')).toContainText("the project's last admin");
  await expect(self.getByTestId('member-role')).toHaveValue('admin');

  // Invite a researcher: a copyable single-use link with its expiry.
  await admin.getByTestId('invite-email').fill(RESEARCHER.email);
  await admin.getByTestId('invite-role').selectOption('researcher');
  await admin.getByTestId('invite-create').click();
  const inviteUrl = await admin.getByTestId('invite-link').inputValue();
  expect(inviteUrl).toMatch(new RegExp(`^${BASE}/invite/[\\w-]+$`));
  await expect(admin.getByTestId('invite-expiry')).toContainText('Single use · expires');
  await expect(admin.getByTestId('invite-list')).toContainText(RESEARCHER.email);

  // The researcher accepts and launches a run from the task page.
  const researcher = await (await browser.newContext()).newPage();
  await researcher.goto(inviteUrl);
  await researcher.locator('#name').fill('Ada');
  await researcher.locator('#email').fill(RESEARCHER.email);
  await researcher.locator('#password').fill(RESEARCHER.password);
  await researcher.getByRole('button', { name: 'Join' }).click();
  await expect(researcher).toHaveURL(`${BASE}/`);
  await researcher.getByTestId('user-menu').click();
  await expect(researcher.getByTestId('user-role')).toContainText('researcher in Default');
  await expect(researcher.getByTestId('menu-members')).toHaveCount(0);
  await researcher.keyboard.press('Escape');
  await expect(researcher.getByTestId('main-nav').getByText('Audit')).toHaveCount(0);
  await researcher.goto('/tasks/household/eval_seen-001');
  await researcher.getByTestId('launch-policy').selectOption('scripted:household-no-open');
  await researcher.getByTestId('launch-k').fill('2');
  await researcher.getByTestId('launch-run').click();
  await expect(researcher).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runUrl = researcher.url();
  const runId = runUrl.split('/').pop()!;
  await expect(researcher.getByTestId('progress')).toHaveText('2 / 2', { timeout: 90_000 });

  // The admin shares the run: a copyable link with its expiry, listed as active.
  await admin.goto(`/runs/${runId}`);
  await admin.getByTestId('share-button').click();
  await admin.getByTestId('share-create').click();
  const shareUrl = await admin.getByTestId('share-link').inputValue();
  expect(shareUrl).toMatch(new RegExp(`^${BASE}/share/`));
  await expect(admin.getByTestId('share-expiry')).toContainText('Expires');
  await expect(admin.getByTestId('share-row')).toHaveCount(1);

  // A visitor without an account: the run, read-only, with a banner and only the shared thing in
  // the navigation; no link to a page that would refuse them.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(shareUrl);
  await expect(visitor).toHaveURL(`${BASE}/runs/${runId}`);
  await expect(visitor.getByTestId('share-banner')).toContainText('Read-only');
  await expect(visitor.getByTestId('progress')).toHaveText('2 / 2');
  const navLinks = visitor.getByTestId('main-nav').locator('a');
  await expect(navLinks).toHaveCount(1);
  await expect(navLinks).toHaveText('Shared run');
  await expect(visitor.locator('a[href="/runs"]')).toHaveCount(0);
  await expect(visitor.locator('a[href^="/tasks/"]')).toHaveCount(0);
  await expect(visitor.locator('a[href^="/compare"]')).toHaveCount(0);
  await expect(visitor.getByTestId('share-button')).toHaveCount(0);
  await expect(visitor.getByTestId('episode-link').first()).toBeVisible();
  await snap(visitor, 'team-ui-share-visitor');

  // The admin revokes it; the visitor's next page opens nothing, nor does the link.
  await admin.getByTestId('share-revoke').click();
  await expect(admin.getByTestId('share-row')).toHaveCount(0);
  await expect(admin.getByTestId('share-inactive')).toContainText('1 revoked or expired link');
  await visitor.reload();
  await expect(visitor).toHaveURL(/\/signin\?next=/);
  const dead = await visitor.goto(shareUrl);
  expect(dead?.status()).toBe(410);
  await expect(visitor.locator('body')).toContainText('invalid, revoked or expired');

  // A harness version shared from the editor's page opens read-only on a page of its own.
  const made = await trpcMutation<{ harnessId: string; version: { id: string } }>(
    admin,
    'harnesses.create',
    {
      name: 'Shared stack',
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'eval_seen-001' } },
    },
  );
  await admin.goto(`/harnesses/${made.harnessId}`);
  await admin.getByTestId('share-button').click();
  await admin.getByTestId('share-create').click();
  const versionUrl = await admin.getByTestId('share-link').inputValue();
  await admin.keyboard.press('Escape');
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(versionUrl);
  await expect(guest).toHaveURL(`${BASE}/harnesses/versions/${made.version.id}`);
  await expect(guest.getByTestId('share-banner')).toContainText('shared harness version');
  await expect(guest.getByTestId('version-title')).toContainText('Shared stack · v1');
  await expect(guest.getByTestId('version-graph').locator('.react-flow__node')).toHaveCount(2);
  await expect(guest.getByTestId('main-nav').locator('a')).toHaveText('Shared harness version');

  // The audit, from the admin's navigation: people by email, a filter by person, object links.
  await admin.getByTestId('main-nav').getByText('Audit').click();
  await expect(admin).toHaveURL(`${BASE}/audit`);
  const launch = admin.getByTestId('audit-row').filter({ hasText: 'runs.launch' });
  await expect(launch.getByTestId('audit-who')).toHaveText(RESEARCHER.email);
  await admin.getByTestId('audit-person').selectOption({ label: RESEARCHER.email });
  await expect(admin.getByTestId('audit-who').first()).toHaveText(RESEARCHER.email);
  const whos = await admin.getByTestId('audit-who').allTextContents();
  expect(new Set(whos)).toEqual(new Set([RESEARCHER.email]));
  await admin.getByTestId('audit-kind').selectOption('runs');
  await expect(admin.getByTestId('audit-row')).toHaveCount(1);
  await admin.getByTestId('audit-target').first().click();
  await expect(admin).toHaveURL(`${BASE}/runs/${runId}`);

  // Sign-out from the menu's link: the session ends.
  await admin.getByTestId('user-menu').click();
  await admin.getByTestId('signout-link').click();
  await expect(admin).toHaveURL(/\/signin$/);
  await admin.goto('/runs');
  await expect(admin).toHaveURL(/\/signin\?next=/);
});
