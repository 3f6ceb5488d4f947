// Observe and Validate both run K rollouts as ordinary Runs through server/rollouts, then read the
// trajectories back. Baselines are cached: a completed baseline Run of the same spec, policy, seeds
// and policy options is reused instead of being run again.
import type { Json } from '../../bridges/core/types.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';
import { rolloutDb } from '../rollouts/db.ts';
import { getSteps, launchRun, listEpisodes, waitForRun } from '../rollouts/service.ts';
import { batchStats } from './stats.ts';
import type { Batch, ObservedEpisode } from './types.ts';

export interface RolloutRequest {
  spec: HarnessSpec;
  policy: string;
  seeds: number[];
  kind: 'baseline' | 'validation';
  maxSteps?: number;
  policyOptions?: Record<string, Json>;
  concurrency?: number;
  onProgress?: (text: string) => void;
  /** Called with the run id as soon as the run exists (before its episodes end). */
  onLaunched?: (runId: string) => Promise<unknown> | undefined;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function findCachedBaseline(req: RolloutRequest, maxSteps: number): Promise<string | null> {
  const db = await rolloutDb();
  const rows = await db.run.findMany({
    where: { kind: 'baseline', policy: req.policy, status: 'completed', maxSteps },
    orderBy: { createdAt: 'desc' },
    select: { id: true, spec: true, seeds: true, rewardParams: true },
    take: 200,
  });
  const want = stable(req.spec);
  const wantOptions = stable(req.policyOptions ?? null);
  for (const r of rows) {
    if (stable(r.spec) !== want) continue;
    if (stable(r.seeds) !== stable(req.seeds)) continue;
    const options = (r.rewardParams as { policyOptions?: unknown } | null)?.policyOptions ?? null;
    if (stable(options) !== wantOptions) continue;
    return r.id;
  }
  return null;
}

export async function readBatch(runId: string): Promise<Batch> {
  const episodes: ObservedEpisode[] = [];
  const seeds: number[] = [];
  let cursor: number | undefined;
  for (;;) {
    const page = await listEpisodes(runId, {
      limit: 200,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    for (const e of page.items) {
      const trajectory: StepRecord[] = [];
      let stepCursor: number | undefined;
      for (;;) {
        const steps = await getSteps(e.id, {
          limit: 500,
          ...(stepCursor !== undefined ? { cursor: stepCursor } : {}),
        });
        trajectory.push(...steps.items);
        if (steps.nextCursor === null) break;
        stepCursor = steps.nextCursor;
      }
      seeds.push(e.seed);
      episodes.push({
        episodeId: e.id,
        seed: e.seed,
        outcome: (e.outcome ?? 'error') as ObservedEpisode['outcome'],
        failureCategory: e.failureCategory,
        errorMessage: e.errorMessage,
        steps: e.steps,
        trajectory,
      });
    }
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return { runId, seeds, episodes, stats: batchStats(episodes) };
}

export async function rollouts(req: RolloutRequest): Promise<Batch> {
  const maxSteps = req.maxSteps ?? 50;
  if (req.kind === 'baseline') {
    const cached = await findCachedBaseline(req, maxSteps);
    if (cached) {
      req.onProgress?.(`baseline: reusing run ${cached}`);
      return { ...(await readBatch(cached)), cached: true };
    }
  }
  const { runId } = await launchRun({
    spec: req.spec,
    policy: req.policy,
    seeds: req.seeds,
    kind: req.kind,
    maxSteps,
    ...(req.concurrency !== undefined ? { concurrency: req.concurrency } : {}),
    ...(req.policyOptions ? { policyOptions: req.policyOptions } : {}),
  });
  req.onProgress?.(`${req.kind}: run ${runId} (${req.seeds.length} episodes)`);
  await req.onLaunched?.(runId);
  await waitForRun(runId);
  return readBatch(runId);
}
