import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** End-state screenshots, kept as artifacts under test-results/screenshots. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** Calls a tRPC query the way the studio does, to compare what the page shows with stored data. */
export async function trpcQuery<T>(page: Page, path: string, input?: unknown): Promise<T> {
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await page.request.get(`/api/trpc/${path}${qs}`);
  if (!res.ok()) throw new Error(`${path}: HTTP ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { result: { data: T } };
  return body.result.data;
}

export async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/api/trpc/${path}`, { data: input });
  if (!res.ok()) throw new Error(`${path}: HTTP ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { result: { data: T } };
  return body.result.data;
}
