// Observe and Validate both run K rollouts as ordinary Runs through server/rollouts, then read the
// trajectories back. Baselines are cached: a completed baseline Run of the same spec, policy, seeds
// and policy options is reused instead of being run again. A rig names its runs (rigRunId), so a
// resumed rig finds the run it launched before a crash instead of launching another.
import type { Json } from '../../bridges/core/types.ts';
import type { Db } from '../db/index.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { episodesWithTrajectories } from '../rollouts/reads.ts';
import type { Rollouts } from '../rollouts/service.ts';
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
  /** The run's id: launching a run of an id that exists returns that run (see rigRunId). */
  runId?: string;
  /** Stops waiting (the rig is put back for a later resume; the run goes on). */
  signal?: AbortSignal;
}

/** A rig's run of a round: `b` the baseline, `v<i>` the validation of iteration i. Lowercase
 * letters and digits like the generated ids, so run links look alike. */
export function rigRunId(rigId: string, round: number, what: 'baseline' | number): string {
  return `${rigId}r${round}${what === 'baseline' ? 'b' : `v${what}`}`;
}

/** The rig was stopped (its process closes its queues): the rig stays unfinished for a resume. */
export class RigStoppedError extends Error {
  override name = 'RigStoppedError';
  constructor() {
    super('the rig was stopped before it finished; it resumes at the next start');
  }
}

export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RigStoppedError();
}

/** Waits for a run launched earlier (by this or a dead process) and reads its episodes. */
export async function awaitBatch(
  service: Rollouts,
  runId: string,
  signal?: AbortSignal,
): Promise<Batch> {
  await service.waitForRun(runId, signal ? { signal } : {});
  // waitForRun returns early when stopped: never read a half-finished run as the batch.
  throwIfStopped(signal);
  return readBatch(service.db, runId);
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

async function findCachedBaseline(
  db: Db,
  req: RolloutRequest,
  maxSteps: number,
): Promise<string | null> {
  const rows = await db.run.findMany({
    where: { kind: 'baseline', policy: req.policy, status: 'completed', maxSteps },
    orderBy: { createdAt: 'desc' },
    select: { id: true, spec: true, seeds: true, policyOptions: true },
    take: 200,
  });
  const want = stable(req.spec);
  const wantOptions = stable(req.policyOptions ?? null);
  for (const r of rows) {
    if (stable(r.spec) !== want) continue;
    if (stable(r.seeds) !== stable(req.seeds)) continue;
    if (stable(r.policyOptions ?? null) !== wantOptions) continue;
    return r.id;
  }
  return null;
}

export async function readBatch(db: Db, runId: string): Promise<Batch> {
  const episodes: ObservedEpisode[] = [];
  const seeds: number[] = [];
  for await (const e of episodesWithTrajectories(db, runId)) {
    seeds.push(e.seed);
    episodes.push({
      episodeId: e.id,
      seed: e.seed,
      outcome: (e.outcome ?? 'error') as ObservedEpisode['outcome'],
      failureCategory: e.failureCategory,
      errorMessage: e.errorMessage,
      steps: e.steps,
      trajectory: e.trajectory,
    });
  }
  return { runId, seeds, episodes, stats: batchStats(episodes) };
}

export async function rollouts(service: Rollouts, req: RolloutRequest): Promise<Batch> {
  const maxSteps = req.maxSteps ?? 50;
  if (req.kind === 'baseline') {
    const cached = await findCachedBaseline(service.db, req, maxSteps);
    if (cached) {
      req.onProgress?.(`baseline: reusing run ${cached}`);
      return { ...(await readBatch(service.db, cached)), cached: true };
    }
  }
  const { runId } = await service.launchRun(
    {
      spec: req.spec,
      policy: req.policy,
      seeds: req.seeds,
      kind: req.kind,
      maxSteps,
      ...(req.concurrency !== undefined ? { concurrency: req.concurrency } : {}),
      ...(req.policyOptions ? { policyOptions: req.policyOptions } : {}),
    },
    req.runId ? { runId: req.runId } : {},
  );
  req.onProgress?.(`${req.kind}: run ${runId} (${req.seeds.length} episodes)`);
  await req.onLaunched?.(runId);
  return awaitBatch(service, runId, req.signal);
}
