// Live stream latency, SSE only: from an event's publish (the recorder's wake-up right after the
// commit) to its arrival at SSE clients of runs.live, on the embedded database (PGlite in a
// folder), as the HTTP load test does (its clients: server/testing/sse.ts; its counter engine,
// whose episodes take a set time, so that the clients are connected while the run streams).
// Episode end → row on the page is measured in the browser by e2e/08-measure.spec.ts.
// Runnable alone: `npx tsx bench/run.ts live`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContext } from '../server/api/trpc.ts';
import { LOCAL_CALLER } from '../server/auth/caller.ts';
import { openDb } from '../server/db/index.ts';
import { percentile } from '../server/hardening/load.ts';
import { counterEngine, counterSpec } from '../server/rollouts/testing.ts';
import { serveStudio } from '../server/testing/http.ts';
import { testServices } from '../server/testing/services.ts';
import { followRunEvents } from '../server/testing/sse.ts';
import { type BenchRow, measured } from './row.ts';

const CLIENTS = 8;
const EPISODES = 150;
const EPISODE_MS = 50;

export async function benchLive(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-live-'));
  const handle = await openDb({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  const services = await testServices(handle, {
    engine: counterEngine({ delayMs: EPISODE_MS }),
    config: { REDIS_URL: undefined, ROLLOUT_CONCURRENCY: 2 },
  });
  const web = await serveStudio(services, {
    context: () => createContext(services, LOCAL_CALLER),
    next: (_req, res) => res.end(),
  });
  // The recorder wakes subscribers right after each commit: that moment is the event's publish.
  const events = services.rollouts.events;
  const published = new Map<string, number[]>();
  const notify = events.notify.bind(events);
  events.notify = (runIds) => {
    const at = Date.now();
    for (const id of runIds) published.set(id, [...(published.get(id) ?? []), at]);
    notify(runIds);
  };
  try {
    const { runId } = await services.rollouts.launchRun({
      spec: counterSpec,
      policy: 'test:inc',
      k: EPISODES,
      maxSteps: 10,
      queue: 'local',
    });
    const t0 = performance.now();
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () => followRunEvents(web.base, runId, '0')),
    );
    const seconds = (performance.now() - t0) / 1000;
    const times = published.get(runId) ?? [];
    // An event's publish is the first wake-up of its run at or after its statement began
    // (createdAt): the recorder writes one batch at a time and wakes subscribers after each.
    const publishOf = (createdAt: string) => {
      const start = Date.parse(createdAt);
      return times.find((t) => t >= start);
    };
    const sse: number[] = [];
    const fromStatement: number[] = [];
    for (const client of clients) {
      for (const e of client.events) {
        const start = Date.parse(e.createdAt);
        const publish = publishOf(e.createdAt);
        // Live events only: a replay of what was stored before the client connected is not.
        if (publish === undefined || start < client.connectedAt) continue;
        sse.push(e.at - publish);
        fromStatement.push(e.at - start);
      }
    }
    if (sse.length < 100) throw new Error(`only ${sse.length} live deliveries measured`);
    const note = `${CLIENTS} SSE clients, ${EPISODES} episodes of ${EPISODE_MS} ms in ${seconds.toFixed(1)} s, ${sse.length} live deliveries`;
    return [
      measured({
        id: 'live.sse_p95_ms',
        name: 'SSE: publish → client, p95',
        value: percentile(sse, 95),
        unit: 'ms',
        note: `${note}; target ≤ 250 ms`,
      }),
      measured({
        id: 'live.sse_p50_ms',
        name: 'SSE: publish → client, p50',
        value: percentile(sse, 50),
        unit: 'ms',
        note,
      }),
      measured({
        id: 'live.statement_to_client_p95_ms',
        name: 'SSE: recorder statement start → client, p95',
        value: percentile(fromStatement, 95),
        unit: 'ms',
        note: 'includes the batch write itself (createdAt is the statement start)',
      }),
    ];
  } finally {
    await web.close();
    await services.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
