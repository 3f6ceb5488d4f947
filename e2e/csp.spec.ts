// Pages run under a nonce-based CSP (no 'unsafe-inline' for scripts): every page a person opens
// renders and works, each response has a fresh nonce, and the browser reports no CSP violation.
import { expect, test } from '@playwright/test';

test('pages work under a nonce CSP: no inline script runs without the nonce', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) violations.push(m.text());
  });
  const nonces = new Set<string>();
  for (const path of ['/', '/runs', '/harnesses/new?task=toy24%3A1-1-1-12', '/skills']) {
    const res = await page.goto(path);
    const csp = res?.headers()['content-security-policy'] ?? '';
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scripts, path).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'$/);
    nonces.add(scripts);
    // The theme script (inline, with the nonce) set the theme before hydration.
    await expect(page.locator('html')).toHaveClass(/\b(dark|light)\b/);
    // Hydrated: the theme toggle answers a click.
    const dark = (await page.locator('html').getAttribute('class'))?.includes('dark') ?? false;
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveClass(dark ? /\blight\b/ : /\bdark\b/);
  }
  expect(nonces.size).toBe(4);
  await page.goto('/');
  await expect(page.getByTestId('bridge-toy24')).toBeVisible();
  expect(violations).toEqual([]);
});
