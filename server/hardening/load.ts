// Load scenarios shared by the hardening tests and bench/hardening.ts: many live viewers on
// concurrent runs (every event delivered once, in order; latency from commit to delivery), and a
// 100,000-step trajectory read page by page through the runs router (memory bounded).

import type { Services } from '../compose.ts';
import { counterSpec } from '../rollouts/testing.ts';
import { callerFor } from '../testing/services.ts';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export interface ViewersResult {
  runs: number;
  viewers: number;
  eventsPerRun: number[];
  delivered: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  ms: number;
}

/**
 * Launches `runs` runs of `episodes` episodes each on the services' engine (tests compose the
 * counter engine), with `viewers` live subscribers spread over them from the first event on.
 * Latency is delivery time minus the event's commit time (createdAt).
 */
export async function liveViewersScenario(
  services: Services,
  o: {
    runs: number;
    viewers: number;
    episodes: number;
    policy?: string;
  },
): Promise<ViewersResult> {
  const { rollouts } = services;
  const t0 = performance.now();
  const runIds: string[] = [];
  for (let i = 0; i < o.runs; i++) {
    const { runId } = await rollouts.launchRun({
      spec: counterSpec,
      policy: o.policy ?? 'test:inc',
      k: o.episodes,
      seed: i * 1000,
      maxSteps: 10,
    });
    runIds.push(runId);
  }
  const latencies: number[] = [];
  const seen: string[][] = [];
  const viewers = Array.from({ length: o.viewers }, async (_, v) => {
    const runId = runIds[v % runIds.length]!;
    const ids: string[] = [];
    seen[v] = ids;
    for await (const e of rollouts.events.subscribe(runId, undefined, {
      untilCompleted: true,
      pollMs: 500,
    })) {
      latencies.push(Date.now() - Date.parse(e.createdAt));
      ids.push(e.id);
    }
  });
  await Promise.all(runIds.map((id) => rollouts.waitForRun(id)));
  await Promise.all(viewers);

  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  const eventsPerRun: number[] = [];
  const stored = new Map<string, string[]>();
  for (const runId of runIds) {
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await rollouts.events.list(runId, after);
      if (page.length === 0) break;
      for (const e of page) all.push(e.id);
      after = page.at(-1)?.id;
    }
    stored.set(runId, all);
    eventsPerRun.push(all.length);
  }
  for (let v = 0; v < o.viewers; v++) {
    const expected = stored.get(runIds[v % runIds.length]!) ?? [];
    const got = seen[v] ?? [];
    const gotSet = new Set(got);
    duplicated += got.length - gotSet.size;
    lost += expected.filter((id) => !gotSet.has(id)).length;
    for (let i = 1; i < got.length; i++) {
      if (BigInt(got[i]!) <= BigInt(got[i - 1]!)) outOfOrder += 1;
    }
  }
  return {
    runs: o.runs,
    viewers: o.viewers,
    eventsPerRun,
    delivered: latencies.length,
    lost,
    duplicated,
    outOfOrder,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    maxMs: Math.max(...latencies),
    ms: Math.round(performance.now() - t0),
  };
}

export interface PagingResult {
  steps: number;
  pages: number;
  bytesServed: number;
  insertMs: number;
  p50PageMs: number;
  p95PageMs: number;
  /** Largest heap growth over the baseline seen after any page (GC'd when exposed). */
  maxHeapGrowthBytes: number;
}

/** A long observation per step so that the whole trajectory is far larger than one page. */
const OBSERVATION = 'You are in the middle of a room. '.repeat(12);

/** Inserts a run with one episode of `steps` steps (createMany in batches), then pages it. */
export async function trajectoryPagingScenario(
  services: Services,
  o: { steps: number; pageSize: number },
): Promise<PagingResult> {
  const { db } = services;
  const run = await db.run.create({
    data: {
      policy: 'scripted:long',
      spec: counterSpec as object,
      taskIds: ['reach-3'],
      k: 1,
      seeds: [0],
      maxSteps: o.steps,
      rewardParams: {},
      status: 'completed',
    },
  });
  const episode = await db.episode.create({
    data: {
      runId: run.id,
      taskId: 'reach-3',
      seed: 0,
      ordinal: 0,
      status: 'done',
      outcome: 'failure',
      steps: o.steps,
    },
  });
  // One INSERT … SELECT over generate_series: the database writes the rows without 100k
  // round-trips (createMany measured ~300 rows/s on this busy machine, far too slow for CI).
  const t0 = performance.now();
  await db.$executeRawUnsafe(
    `INSERT INTO "Step" ("episodeId", "index", "action", "executedAction", "rawObservation", "observation", "reward", "terminated", "truncated", "changes", "info")
     SELECT $1, i,
            jsonb_build_object('name', 'act', 'args', jsonb_build_object('command', 'go to shelf ' || (i % 17))),
            jsonb_build_object('name', 'act', 'args', jsonb_build_object('command', 'go to shelf ' || (i % 17))),
            $2 || i, $2 || i, 0, false, false, '[]'::jsonb, '{}'::jsonb
     FROM generate_series(0, $3::int - 1) AS i`,
    episode.id,
    OBSERVATION,
    o.steps,
  );
  const insertMs = Math.round(performance.now() - t0);

  const caller = callerFor(services);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const pageMs: number[] = [];
  let maxHeapGrowthBytes = 0;
  let bytesServed = 0;
  let next = 0;
  let seen = 0;
  let pages = 0;
  for (;;) {
    const t = performance.now();
    const page = await caller.runs.steps({ episodeId: episode.id, from: next, limit: o.pageSize });
    pageMs.push(performance.now() - t);
    pages += 1;
    for (const step of page.items) {
      if (step.index !== seen)
        throw new Error(`paging skipped or repeated: step ${step.index}, expected ${seen}`);
      seen += 1;
    }
    bytesServed += JSON.stringify(page.items).length;
    if (pages % 20 === 0) {
      gc?.();
      maxHeapGrowthBytes = Math.max(maxHeapGrowthBytes, process.memoryUsage().heapUsed - baseline);
    }
    if (page.nextCursor === null) break;
    next = page.nextCursor + 1;
  }
  if (seen !== o.steps) throw new Error(`paged ${seen} of ${o.steps} steps`);
  return {
    steps: o.steps,
    pages,
    bytesServed,
    insertMs,
    p50PageMs: percentile(pageMs, 50),
    p95PageMs: percentile(pageMs, 95),
    maxHeapGrowthBytes,
  };
}
