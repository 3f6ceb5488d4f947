// A run's episode settings as stored on the Run row, turned into episode inputs.
import type { Json } from '../../bridges/core/types.ts';
import type { HarnessSpec } from '../harness/spec.ts';
import { rolloutDb } from './db.ts';
import type { ClaimedEpisode } from './recorder.ts';
import type { EpisodeInput, RewardParams } from './types.ts';

export interface RunSettings {
  id: string;
  spec: HarnessSpec;
  policy: string;
  maxSteps: number;
  concurrency: number | null;
  /** Reward parameters, plus the run's invalid-action loop limit (stored beside them). */
  rewardParams: Partial<RewardParams> & {
    invalidLoopLimit?: number;
    policyOptions?: Record<string, Json>;
  };
}

export async function loadRunSettings(runId: string): Promise<RunSettings> {
  const db = await rolloutDb();
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      id: true,
      spec: true,
      policy: true,
      maxSteps: true,
      concurrency: true,
      rewardParams: true,
    },
  });
  return {
    id: run.id,
    spec: run.spec as unknown as HarnessSpec,
    policy: run.policy,
    maxSteps: run.maxSteps,
    concurrency: run.concurrency,
    rewardParams: (run.rewardParams ?? {}) as RunSettings['rewardParams'],
  };
}

export function episodeInput(
  run: RunSettings,
  claimed: Pick<ClaimedEpisode, 'taskId' | 'seed'>,
): EpisodeInput {
  const { invalidLoopLimit, policyOptions, ...rewardParams } = run.rewardParams;
  return {
    spec: run.spec,
    taskId: claimed.taskId,
    seed: claimed.seed,
    policyId: run.policy,
    maxSteps: run.maxSteps,
    rewardParams,
    ...(invalidLoopLimit !== undefined ? { invalidLoopLimit } : {}),
    ...(policyOptions !== undefined ? { policyOptions } : {}),
  };
}
