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
  const res = await getIdempotent(page, `/api/trpc/${path}${qs}`);
  if (!res.ok()) throw new Error(`${path}: HTTP ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { result: { data: T } };
  return body.result.data;
}

/** A GET retried once when a kept-alive socket was reset under it, as browsers retry idempotent requests. */
async function getIdempotent(page: Page, url: string) {
  try {
    return await page.request.get(url);
  } catch (err) {
    if (!/ECONNRESET|socket hang up/.test(String(err))) throw err;
    return page.request.get(url);
  }
}

export async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/api/trpc/${path}`, { data: input });
  if (!res.ok()) throw new Error(`${path}: HTTP ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { result: { data: T } };
  return body.result.data;
}

export interface RunMetricsView {
  successRate: number | null;
  interval: [number, number];
  failureDistribution: Record<string, number>;
  errorDistribution: Record<string, number>;
  meanSteps: number | null;
  meanStepsSuccess: number | null;
  meanReward: number | null;
  successes: number;
  failures: number;
  errors: number;
}

export interface RunView {
  id: string;
  status: string;
  episodesDone: number;
  episodesTotal: number;
  metrics: RunMetricsView;
}

/** Launches a run through the product's API (what the studio's launch form calls). */
export async function launchRun(page: Page, input: Record<string, unknown>): Promise<string> {
  const { runId } = await trpcMutation<{ runId: string }>(page, 'runs.launch', input);
  return runId;
}

export async function waitForRun(page: Page, id: string, timeoutMs = 60_000): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const run = await trpcQuery<RunView>(page, 'runs.byId', { id });
    if (run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled')
      return run;
    await page.waitForTimeout(250);
  }
  throw new Error(`run ${id} did not finish in ${timeoutMs} ms`);
}

/** The same formatting the studio uses (components/runs/format.ts). */
export function pct(value: number | null, digits = 1): string {
  return value === null ? '—' : `${(value * 100).toFixed(digits)}%`;
}

export function base(bridge: string, task: string) {
  return { version: 1, env: { type: 'base', bridge, task } };
}

export const FAILURE_LABEL: Record<string, string> = {
  step_budget_exhausted: 'Step budget exhausted',
  gave_up: 'Gave up',
  wrong_final_state: 'Wrong final state',
  invalid_action_loop: 'Invalid-action loop',
};

/** Drags from a node's output port to another node's input port, as a person connects nodes
 * (hover, press, move in steps, release); tries again once if React Flow missed the drop. */
/** The React Flow id of the first graph node of `kind` (its `node-<kind>` test id). */
export async function nodeId(page: Page, kind: string): Promise<string> {
  const id = await page
    .locator('.react-flow__node')
    .filter({ has: page.getByTestId(`node-${kind}`) })
    .first()
    .getAttribute('data-id');
  if (!id) throw new Error(`no ${kind} node`);
  return id;
}

export async function connectNodes(
  page: Page,
  source: string,
  target: string,
  handle: string,
): Promise<void> {
  const from = page.locator(`[data-testid="rf__node-${source}"] [data-testid="handle-out"]`);
  const to = page.locator(`[data-testid="rf__node-${target}"] [data-testid="handle-${handle}"]`);
  const edge = page.locator(`[data-testid="rf__edge-e:${source}->${target}:${handle}"]`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) throw new Error(`handles not visible: ${source} -> ${target}.${handle}`);
    await from.hover();
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 8, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
    await to.hover();
    await page.mouse.up();
    if ((await edge.count()) > 0) return;
    await page.waitForTimeout(200);
    if ((await edge.count()) > 0) return;
  }
}

/** Replaces a CodeMirror editor's whole text. */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const content = page.locator('[data-testid="code-editor"] .cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Clicks an edge at the middle of its path, as a person does (a level edge has no height, so
 * Playwright would call its element invisible). */
export async function clickEdge(page: Page, id: string): Promise<void> {
  const path = page.locator(`[data-testid="rf__edge-${id}"] path.react-flow__edge-path`);
  await path.waitFor({ state: 'attached' });
  const point = await path.evaluate((el) => {
    const p = el as SVGPathElement;
    const mid = p.getPointAtLength(p.getTotalLength() / 2);
    const m = p.getScreenCTM();
    if (!m) throw new Error('edge not on screen');
    return { x: mid.x * m.a + mid.y * m.c + m.e, y: mid.x * m.b + mid.y * m.d + m.f };
  });
  await page.mouse.click(point.x, point.y);
}
