// A run's episode settings as stored on the Run row, turned into episode inputs.
import type { Json } from '../../bridges/core/types.ts';
import { type RunParams, RunParamsSchema } from '../../contracts/runs.ts';
import { type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import type { PolicyOptionsResolver } from './engine.ts';
import { firstBase } from './episode.ts';
import type { ClaimedEpisode } from './recorder.ts';
import type { EpisodeInput } from './types.ts';

export interface RunSettings {
  id: string;
  spec: HarnessSpec;
  policy: string;
  maxSteps: number;
  concurrency: number | null;
  /** Reward parameters, plus the run's invalid-action loop limit and policy options. */
  rewardParams: RunParams;
  /** Per-task policy options (skills retrieved for each task's goal from the run's skill bank). */
  policyOptionsByTask?: Record<string, Record<string, Json>>;
}

export async function loadRunSettings(
  db: Db,
  options: PolicyOptionsResolver,
  runId: string,
): Promise<RunSettings> {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      id: true,
      spec: true,
      policy: true,
      maxSteps: true,
      concurrency: true,
      rewardParams: true,
      taskIds: true,
    },
  });
  const settings: RunSettings = {
    id: run.id,
    spec: parseColumn(HarnessSpecSchema, run.spec, `Run ${runId} spec`),
    policy: run.policy,
    maxSteps: run.maxSteps,
    concurrency: run.concurrency,
    rewardParams: parseColumn(RunParamsSchema, run.rewardParams ?? {}, `Run ${runId} rewardParams`),
  };
  const policyOptions = settings.rewardParams.policyOptions;
  if (policyOptions) {
    // E.g. a run with a skill bank: the bank is loaded here, once per run, by whichever process
    // executes the episodes (the run row keeps only the id).
    const resolved = await options.resolve({
      policy: run.policy,
      bridge: firstBase(settings.spec.env).bridge,
      taskIds: run.taskIds,
      policyOptions,
    });
    if (resolved.shared)
      settings.rewardParams = { ...settings.rewardParams, policyOptions: resolved.shared };
    if (resolved.perTask) settings.policyOptionsByTask = resolved.perTask;
  }
  return settings;
}

export function episodeInput(
  run: RunSettings,
  claimed: Pick<ClaimedEpisode, 'taskId' | 'seed'>,
): EpisodeInput {
  const { invalidLoopLimit, policyOptions: shared, ...rewardParams } = run.rewardParams;
  const perTask = run.policyOptionsByTask?.[claimed.taskId];
  const policyOptions = perTask ? { ...(shared ?? {}), ...perTask } : shared;
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
