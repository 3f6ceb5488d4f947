// Issue 17 §2: an editor a room can read. At 1920×1080 the canvas takes the page's width, fitting
// never shrinks node text below 12 px, fullscreen / minimap / presentation mode work, auto-layout
// never overlaps nodes on a deep stack (bounding boxes), a Chain's port labels sit on its handles,
// a refused connection says why next to the pointer, and Backspace removes exactly the selected
// edge (undo restores it).
import { expect, type Page, test } from '@playwright/test';
import { clickEdge, connectNodes, snap } from './helpers.ts';

test.use({ viewport: { width: 1920, height: 1080 } });

/** The rendered size of the smallest text in the graph's nodes, in screen pixels. */
async function smallestNodeTextPx(page: Page): Promise<number> {
  return page.evaluate(() => {
    const viewport = document.querySelector('.react-flow__viewport') as HTMLElement;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    let min = Number.POSITIVE_INFINITY;
    for (const el of document.querySelectorAll('.react-flow__node *')) {
      const text = [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent?.trim());
      if (text) min = Math.min(min, Number.parseFloat(getComputedStyle(el).fontSize) * zoom);
    }
    return min;
  });
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A stack `depth` layers deep under each leg of a branch chain with a remedial leg. */
function deepSpec(depth: number) {
  const leg = (task: string) => {
    let env: Record<string, unknown> = { type: 'base', bridge: 'household', task };
    for (let i = 0; i < depth; i++) {
      env =
        i % 2 === 0
          ? { type: 'contract', code: 'export function filterAction(a) { return a; }', env }
          : { type: 'stage', actions: [], env };
    }
    return env;
  };
  return {
    version: 1,
    env: {
      type: 'chain',
      mode: 'branch',
      first: leg('eval_seen-001'),
      second: leg('eval_seen-002'),
      remedial: leg('eval_seen-003'),
    },
  };
}

test('a room can read the editor: width, zoom, layout, ports, refusals, delete and undo', async ({
  page,
}) => {
  await page.goto('/harnesses/new?task=household:eval_seen-001');
  const canvas = page.getByTestId('graph-canvas');
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  expect(box.width).toBeGreaterThan(1350);
  expect(box.height).toBeGreaterThan(700);
  await expect(page.locator('.react-flow__minimap')).toBeVisible();
  expect(await smallestNodeTextPx(page)).toBeGreaterThanOrEqual(12);

  // A Chain: its port labels are on the lines of its handles.
  await page.getByTestId('palette-chain').click();
  const chain = page.locator('.react-flow__node').filter({ has: page.getByTestId('node-chain') });
  await expect(chain).toHaveCount(1);
  const chainId = (await chain.getAttribute('data-id'))!;
  // Both boxes are read in one frame: adding a node fits the view with an animation, and two
  // separate reads would see the node at two zooms.
  for (const port of ['first', 'second', 'remedial']) {
    const offset = await chain.evaluate((node, p) => {
      const mid = (testId: string) => {
        const r = node.querySelector(`[data-testid="${testId}"]`)!.getBoundingClientRect();
        return r.y + r.height / 2;
      };
      return mid(`handle-${p}`) - mid(`port-label-${p}`);
    }, port);
    expect(Math.abs(offset), port).toBeLessThan(2);
  }

  // A connection onto an occupied input is refused, and says why next to the pointer.
  await page.getByTestId('palette-base').click();
  const envs = page.locator('.react-flow__node').filter({ has: page.getByTestId('node-base') });
  await expect(envs).toHaveCount(2);
  const second = (await envs.nth(1).getAttribute('data-id'))!;
  await connectNodes(page, second, chainId, 'first');
  await expect(page.locator(`[data-testid="rf__edge-e:${second}->${chainId}:first"]`)).toHaveCount(
    1,
  );
  // The original environment already feeds the output: each environment feeds one wrapper.
  const from = page.locator('[data-testid="rf__node-env"] [data-testid="handle-out"]');
  const to = chain.getByTestId('handle-first');
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await from.hover();
  await page.mouse.down();
  await page.mouse.move(a.x + 20, a.y + 20, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await expect(page.getByTestId('connect-hint')).toContainText('Not connected:');
  await page.mouse.up();
  const refusal = page.getByTestId('connect-refusal');
  await expect(refusal).toContainText('Not connected:');
  const r = (await refusal.boundingBox())!;
  expect(Math.abs(r.x - (b.x + b.width / 2))).toBeLessThan(60);
  expect(Math.abs(r.y - (b.y + b.height / 2))).toBeLessThan(60);

  // Backspace on the selected edge removes that edge only, three times over; undo restores it.
  for (let i = 0; i < 3; i++) {
    const nodes = await page.locator('.react-flow__node').count();
    await clickEdge(page, 'e:env->output:env');
    await page.keyboard.press('Backspace');
    await expect(page.locator('[data-testid="rf__edge-e:env->output:env"]')).toHaveCount(0);
    await expect(page.locator('.react-flow__node')).toHaveCount(nodes);
    await page.getByTestId('undo').click();
    await expect(page.locator('[data-testid="rf__edge-e:env->output:env"]')).toHaveCount(1);
  }
  // And a selected node with Delete: that node, undo brings it back with its edge.
  await chain.click();
  await page.keyboard.press('Delete');
  await expect(chain).toHaveCount(0);
  await page.getByTestId('undo').click();
  await expect(chain).toHaveCount(1);
  await expect(page.locator(`[data-testid="rf__edge-e:${second}->${chainId}:first"]`)).toHaveCount(
    1,
  );

  // A deep stack imported and auto-laid out: no two nodes overlap on screen.
  await page.getByTestId('import-json').click();
  await page.getByTestId('import-text').fill(JSON.stringify(deepSpec(5)));
  await page.getByTestId('import-apply').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(20);
  await page.getByTestId('auto-layout').click();
  await page.waitForTimeout(400);
  const boxes = await page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const b = el.getBoundingClientRect();
      return { id: el.getAttribute('data-id'), x: b.x, y: b.y, width: b.width, height: b.height };
    }),
  );
  for (const [i, p] of boxes.entries())
    for (const q of boxes.slice(i + 1)) expect(overlap(p, q), `${p.id} / ${q.id}`).toBe(false);
  // Fitting a graph this large pans instead of shrinking the text.
  await page.locator('.react-flow__controls-fitview').click();
  await page.waitForTimeout(300);
  expect(await smallestNodeTextPx(page)).toBeGreaterThanOrEqual(12);
  await snap(page, 'editor-1920-deep-stack');

  // Presentation mode: larger type, the side panel folded; fullscreen fills the window.
  await page.getByTestId('presentation-toggle').click();
  await expect(page.getByTestId('side-column')).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(await smallestNodeTextPx(page)).toBeGreaterThanOrEqual(18);
  await page.getByTestId('fullscreen-toggle').click();
  const full = (await page.getByTestId('graph-canvas').boundingBox())!;
  expect(full.width).toBeGreaterThan(1850);
  await snap(page, 'editor-1920-presentation');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('graph-editor')).not.toHaveAttribute('data-fullscreen', 'true');
});
