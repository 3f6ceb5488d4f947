// Load over real HTTP: 50 SSE clients on the tRPC subscription endpoint (runs.live), served by the
// studio's request handler (server/http.ts, the one server/main.ts serves; Next is replaced by a
// stub) on a loopback port, following 4 concurrent runs.
// Every stored event reaches every client of its run once, in order; latency (commit to receipt
// by the client) is reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../api/trpc.ts';
import { LOCAL_CALLER } from '../auth/caller.ts';
import type { Services } from '../compose.ts';
import { createTestDb, type TestDb } from '../db/testing.ts';
import { counterEngine, counterSpec } from '../rollouts/testing.ts';
import { serveStudio, type TestServer } from '../testing/http.ts';
import { testServices } from '../testing/services.ts';
import { followRunEvents } from '../testing/sse.ts';
import { percentile } from './load.ts';

const RUNS = 4;
const VIEWERS = 50;
const EPISODES = 40;

let handle: TestDb;
let services: Services;
let web: TestServer;
let base: string;

beforeAll(async () => {
  handle = await createTestDb('postgres');
  // A few ms per step keeps the runs going while the clients connect, so most events are live.
  services = await testServices(handle, { engine: counterEngine({ delayMs: 25 }) });
  web = await serveStudio(services, {
    context: () => createContext(services, LOCAL_CALLER),
    next: (_req, res) => res.end(),
  });
  base = web.base;
}, 60_000);

afterAll(async () => {
  await web?.close();
  await services?.close();
  await handle?.close();
});

/** One SSE client (server/testing/sse.ts), reading until the stream ends after run_completed. */
const follow = (runId: string, lastEventId: string) => followRunEvents(base, runId, lastEventId);

describe('load over HTTP', () => {
  it(`${VIEWERS} SSE clients on ${RUNS} concurrent runs: no event lost, duplicated or reordered`, async () => {
    const t0 = performance.now();
    const runIds: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { runId } = await services.rollouts.launchRun({
        spec: counterSpec,
        policy: 'test:inc',
        k: EPISODES,
        seed: i * 1000,
        maxSteps: 10,
      });
      runIds.push(runId);
    }
    // Each client resumes from the start ('0'), so events committed before it connected count too.
    const clients = Array.from({ length: VIEWERS }, (_, v) => follow(runIds[v % RUNS]!, '0'));
    const results = await Promise.all(clients);
    await Promise.all(runIds.map((id) => services.rollouts.waitForRun(id)));

    const stored = new Map<string, string[]>();
    for (const runId of runIds) {
      const all: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await services.rollouts.listRunEvents(runId, after);
        if (page.length === 0) break;
        for (const e of page) all.push(e.id);
        after = page.at(-1)?.id;
      }
      stored.set(runId, all);
    }
    let lost = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    let delivered = 0;
    const latencies: number[] = [];
    const liveLatencies: number[] = [];
    for (const [v, r] of results.entries()) {
      const expected = stored.get(runIds[v % RUNS]!) ?? [];
      const got = r.events.map((e) => e.id);
      const gotSet = new Set(got);
      delivered += got.length;
      duplicated += got.length - gotSet.size;
      lost += expected.filter((id) => !gotSet.has(id)).length;
      for (let i = 1; i < got.length; i++) {
        if (BigInt(got[i]!) <= BigInt(got[i - 1]!)) outOfOrder += 1;
      }
      for (const e of r.events) {
        const committed = Date.parse(e.createdAt);
        latencies.push(e.at - committed);
        // Live: committed after this client's stream opened (not a replay of the backlog).
        if (committed >= r.connectedAt) liveLatencies.push(e.at - committed);
      }
    }
    const eventsPerRun = runIds.map((id) => stored.get(id)?.length ?? 0);
    const ms = Math.round(performance.now() - t0);
    console.log(
      `live viewers over HTTP (SSE): ${VIEWERS} clients x ${RUNS} runs, events per run ${eventsPerRun.join('/')}, ` +
        `${delivered} deliveries, lost ${lost}, duplicated ${duplicated}, out of order ${outOfOrder}, ` +
        `latency p50 ${percentile(latencies, 50)} ms p95 ${percentile(latencies, 95)} ms max ${Math.max(...latencies)} ms; ` +
        `live events only (${liveLatencies.length}): p50 ${percentile(liveLatencies, 50)} ms p95 ${percentile(liveLatencies, 95)} ms; ${ms} ms`,
    );
    for (const n of eventsPerRun) expect(n).toBeGreaterThan(EPISODES);
    expect(delivered).toBe(
      eventsPerRun.reduce((sum, n, run) => sum + n * Math.ceil((VIEWERS - run) / RUNS), 0),
    );
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(outOfOrder).toBe(0);
    // Every stream ended on the run's last event.
    for (const r of results) expect(r.events.at(-1)?.type).toBe('run_completed');
    expect(ms).toBeLessThan(90_000);
  }, 120_000);
});
