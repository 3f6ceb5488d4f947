// Issue 17 §3: live co-editing and "follow me", with two browser contexts (two people). One edits,
// the other sees it — new node, disconnection and connection, move, spec edit, code edit — and the
// latency of each is measured and written to test-results/coedit-latency.json; each sees the
// other's selection with name and colour; simultaneous conflicting edits converge to the same
// graph in both (and the server's); a follower's page follows the presenter across three pages.
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { clickEdge, connectNodes, snap, trpcQuery } from './helpers.ts';

const node = (p: Page, kind: string) =>
  p.locator('.react-flow__node').filter({ has: p.getByTestId(`node-${kind}`) });

/**
 * Selects a node as a click on it does. The other person's view is not fitted to nodes someone
 * else added (the editor pans rather than shrink text), so the node may lie outside the canvas:
 * a pointer click would make Playwright scroll the canvas's clipped container and shift the graph.
 */
const pick = (p: Page, kind: string) => node(p, kind).dispatchEvent('click');

type Timings = {
  sent: { clientId: string; clientSeq: number; at: number }[];
  arrived: { clientId: string; clientSeq: number; at: number }[];
};
const timingsOf = (p: Page) =>
  p.evaluate(
    () =>
      (window as unknown as { __envharnessLive?: Timings }).__envharnessLive ?? {
        sent: [],
        arrived: [],
      },
  );

/**
 * One edit made in `from` and seen in `to`: the latency from the moment the editor made the edit
 * to the moment the other browser received it (both pages' clocks are this machine's), and the
 * time the test driver itself observed (which adds Playwright's own actions and polling).
 */
async function measure(
  from: Page,
  to: Page,
  act: () => Promise<unknown>,
  seen: () => Promise<unknown>,
): Promise<{ ms: number; observedMs: number }> {
  const before = (await timingsOf(from)).sent.length;
  const t0 = Date.now();
  await act();
  await seen();
  const observedMs = Date.now() - t0;
  const sent = (await timingsOf(from)).sent.slice(before);
  const arrived = (await timingsOf(to)).arrived;
  const each = sent.map((s) => {
    const a = arrived.find((x) => x.clientId === s.clientId && x.clientSeq === s.clientSeq);
    if (!a) throw new Error(`edit ${s.clientSeq} never arrived`);
    return a.at - s.at;
  });
  expect(each.length).toBeGreaterThan(0);
  return { ms: Math.max(...each), observedMs };
}

async function rename(p: Page, name: string) {
  await p.getByTestId('live-rename').click();
  await p.getByTestId('live-name').fill(name);
  await p.getByTestId('live-name').press('Enter');
}

/** What a page shows of the graph: node ids with positions, edges, the chain's mode and the code. */
async function shown(p: Page) {
  const nodes = await p
    .locator('.react-flow__node')
    .evaluateAll((els) =>
      els
        .map((el) => `${el.getAttribute('data-id')}@${(el as HTMLElement).style.transform}`)
        .sort(),
    );
  const edges = await p
    .locator('.react-flow__edge')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-id')).sort());
  return { nodes, edges };
}

test('two people co-edit one draft live, converge on conflicts, and follow a presenter', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // Two people at full-HD screens: the graph of the conflict below fits both canvases.
  const screen = { viewport: { width: 1920, height: 1080 } };
  const alice = await (await browser.newContext(screen)).newPage();
  const bob = await (await browser.newContext(screen)).newPage();
  await alice.goto('/harnesses/new?task=household:eval_seen-001');
  await alice.getByTestId('live-start').click();
  await expect(alice.getByTestId('live-on')).toBeVisible();
  await expect(alice).toHaveURL(/[?&]draft=/);
  const draftId = new URL(alice.url()).searchParams.get('draft')!;
  await bob.goto(alice.url());
  await expect(bob.getByTestId('live-on')).toBeVisible();
  await rename(alice, 'Alice');
  await rename(bob, 'Bob');
  await expect(bob.getByTestId('live-people')).toContainText('Alice');
  await expect(alice.getByTestId('live-people')).toContainText('Bob');

  const timings: Record<string, { ms: number; observedMs: number }> = {};
  const latency = (act: () => Promise<unknown>, seen: () => Promise<unknown>) =>
    measure(alice, bob, act, seen);
  // A new node.
  timings.newNode = await latency(
    () => alice.getByTestId('palette-contract').click(),
    () => expect(node(bob, 'contract')).toHaveCount(1),
  );
  const contract = (await node(alice, 'contract').getAttribute('data-id'))!;
  // A disconnection, then a connection.
  await clickEdge(alice, 'e:env->output:env');
  timings.disconnect = await latency(
    () => alice.keyboard.press('Backspace'),
    () => expect(bob.locator('[data-testid="rf__edge-e:env->output:env"]')).toHaveCount(0),
  );
  timings.connect = await latency(
    () => connectNodes(alice, 'env', contract, 'env'),
    () => expect(bob.locator(`[data-testid="rf__edge-e:env->${contract}:env"]`)).toHaveCount(1),
  );
  await connectNodes(alice, contract, 'output', 'env');
  // A move: the output dragged 120 px down.
  const out = alice.locator('[data-testid="rf__node-output"]');
  const before = await bob
    .locator('[data-testid="rf__node-output"]')
    .evaluate((el) => (el as HTMLElement).style.transform);
  const ob = (await out.boundingBox())!;
  timings.move = await latency(
    async () => {
      await alice.mouse.move(ob.x + 40, ob.y + 20);
      await alice.mouse.down();
      await alice.mouse.move(ob.x + 40, ob.y + 140, { steps: 8 });
      await alice.mouse.up();
    },
    () =>
      expect
        .poll(
          () =>
            bob
              .locator('[data-testid="rf__node-output"]')
              .evaluate((el) => (el as HTMLElement).style.transform),
          { intervals: [20] },
        )
        .not.toBe(before),
  );
  // A spec edit: a Chain's mode.
  await alice.getByTestId('palette-chain').click();
  await expect(node(bob, 'chain')).toHaveCount(1);
  await expect(alice.getByTestId('chain-mode')).toBeVisible();
  timings.specEdit = await latency(
    () => alice.getByTestId('chain-mode').selectOption('alternate'),
    () => expect(node(bob, 'chain')).toContainText('mode: alternate'),
  );
  // A code edit, seen in the other person's code editor.
  await pick(alice, 'contract');
  await pick(bob, 'contract');
  const aliceCode = alice.locator('[data-testid="code-editor"] .cm-content');
  await aliceCode.click();
  await alice.keyboard.press('ControlOrMeta+Home');
  timings.codeEdit = await latency(
    () => alice.keyboard.insertText('// from Alice\n'),
    () =>
      expect(bob.locator('[data-testid="code-editor"] .cm-content')).toContainText('// from Alice'),
  );

  // Each sees the other's selection with name and colour.
  const peer = bob.locator(`[data-testid="rf__node-${contract}"]`).getByTestId('peer-selection');
  await expect(peer).toHaveText('Alice');
  await expect(
    alice.locator(`[data-testid="rf__node-${contract}"]`).getByTestId('peer-selection'),
  ).toHaveText('Bob');
  const colour = await peer.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(colour).not.toBe('rgba(0, 0, 0, 0)');
  await snap(bob, 'coedit-peer-selection');

  const values = Object.values(timings)
    .map((t) => t.ms)
    .sort((x, y) => x - y);
  const median = values[Math.floor(values.length / 2)]!;
  const max = values.at(-1)!;
  const load = (await import('node:os')).loadavg()[0];
  mkdirSync('test-results', { recursive: true });
  writeFileSync(
    'test-results/coedit-latency.json',
    `${JSON.stringify({ unit: 'ms', goal: 500, median, max, loadAverage1m: load, edits: timings }, null, 2)}\n`,
  );
  console.log(`co-editing latency (ms): ${JSON.stringify(timings)}; median ${median}, max ${max}`);

  // Simultaneous conflicting edits: both set the chain's mode, both edit the code on different
  // lines, both move the environment (up, clear of the other nodes) — at the same moment. Both end on one graph, the server's.
  await pick(alice, 'chain');
  await pick(bob, 'chain');
  const envA = (await alice.locator('[data-testid="rf__node-env"]').boundingBox())!;
  const envB = (await bob.locator('[data-testid="rf__node-env"]').boundingBox())!;
  await Promise.all([
    alice.getByTestId('chain-mode').selectOption('branch'),
    bob.getByTestId('chain-mode').selectOption('sequential'),
    (async () => {
      await alice.mouse.move(envA.x + 30, envA.y + 20);
      await alice.mouse.down();
      await alice.mouse.move(envA.x + 30, envA.y - 140, { steps: 5 });
      await alice.mouse.up();
    })(),
    (async () => {
      await bob.mouse.move(envB.x + 30, envB.y + 20);
      await bob.mouse.down();
      await bob.mouse.move(envB.x + 30, envB.y - 70, { steps: 5 });
      await bob.mouse.up();
    })(),
  ]);
  // Both views fitted again (the drags may have moved nodes out of the canvas' window).
  for (const p of [alice, bob]) await p.locator('.react-flow__controls-fitview').click();
  await pick(alice, 'contract');
  await pick(bob, 'contract');
  await Promise.all([
    (async () => {
      await alice.locator('[data-testid="code-editor"] .cm-content').click();
      await alice.keyboard.press('ControlOrMeta+Home');
      await alice.keyboard.insertText('// Alice was here\n');
    })(),
    (async () => {
      await bob.locator('[data-testid="code-editor"] .cm-content').click();
      await bob.keyboard.press('ControlOrMeta+End');
      await bob.keyboard.insertText('\n// Bob was here');
    })(),
  ]);
  await expect
    .poll(async () => JSON.stringify(await shown(alice)) === JSON.stringify(await shown(bob)), {
      timeout: 10_000,
    })
    .toBe(true);
  for (const p of [alice, bob]) {
    const code = p.locator('[data-testid="code-editor"] .cm-content');
    await expect(code).toContainText('// Alice was here');
    await expect(code).toContainText('// Bob was here');
  }
  const server = await trpcQuery<{
    graph: { nodes: { id: string; kind: string; data: Record<string, unknown> }[] };
  }>(alice, 'drafts.byId', { draftId });
  const mode = server.graph.nodes.find((n) => n.kind === 'chain')?.data.mode;
  for (const p of [alice, bob]) await p.locator('.react-flow__controls-fitview').click();
  await pick(alice, 'chain');
  await pick(bob, 'chain');
  await expect(alice.getByTestId('chain-mode')).toHaveValue(String(mode));
  await expect(bob.getByTestId('chain-mode')).toHaveValue(String(mode));

  // The draft survives a reload (it lives on the server).
  await bob.reload();
  await expect(node(bob, 'chain')).toHaveCount(1);
  expect(JSON.stringify(await shown(bob))).toBe(JSON.stringify(await shown(alice)));

  // Follow me: Alice presents, Bob follows her across three pages.
  await alice.getByTestId('follow-me').click();
  await expect(bob.getByTestId('follow-offer')).toContainText('Alice is presenting');
  await bob.getByTestId('follow-accept').click();
  await expect(bob.getByTestId('following')).toContainText('Following Alice');
  for (const path of ['/runs', '/harnesses', '/tasks/household/eval_seen-002']) {
    await alice.getByTestId('main-nav').waitFor();
    await alice.goto(path);
    await expect(bob).toHaveURL(new RegExp(`${path.replace(/[/]/g, '\\/')}$`), { timeout: 5000 });
  }

  // The goal is 500 ms; the machine's load (2 cores shared with other suites) is recorded beside
  // the figures. The median must meet it; no edit may take three times as long.
  expect(median).toBeLessThan(500);
  expect(max).toBeLessThan(1500);
});
