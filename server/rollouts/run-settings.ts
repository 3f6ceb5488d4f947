// A run's episode settings as stored on the Run row, turned into episode inputs.
import type { Json } from '../../bridges/core/types.ts';
import {
  InvalidLoopLimitSchema,
  type PolicyOptions,
  PolicyOptionsSchema,
  type RunParams,
  RunParamsSchema,
} from '../../contracts/runs.ts';
import { firstBase, type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { parseColumn, parseOptionalColumn } from '../db/json.ts';
import type { PolicyOptionsResolver } from './engine.ts';
import type { ClaimedEpisode } from './recorder.ts';
import type { EpisodeInput } from './types.ts';

export interface RunSettings {
  id: string;
  spec: HarnessSpec;
  policy: string;
  maxSteps: number;
  concurrency: number | null;
  /** The reward parameters the run overrides. */
  rewardParams: RunParams;
  /** Null: no consecutive-invalid cut-off (the default). */
  invalidLoopLimit: number | null;
  /** The policy options every task shares (a stored skill bank id already expanded). */
  policyOptions?: PolicyOptions;
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
      invalidLoopLimit: true,
      policyOptions: true,
      taskIds: true,
    },
  });
  const where = `Run ${runId}`;
  const settings: RunSettings = {
    id: run.id,
    spec: parseColumn(HarnessSpecSchema, run.spec, `${where} spec`),
    policy: run.policy,
    maxSteps: run.maxSteps,
    concurrency: run.concurrency,
    rewardParams: parseColumn(RunParamsSchema, run.rewardParams ?? {}, `${where} rewardParams`),
    invalidLoopLimit: parseOptionalColumn(
      InvalidLoopLimitSchema,
      run.invalidLoopLimit,
      `${where} invalidLoopLimit`,
    ),
  };
  const policyOptions = parseOptionalColumn(
    PolicyOptionsSchema,
    run.policyOptions,
    `${where} policyOptions`,
  );
  if (policyOptions) {
    settings.policyOptions = policyOptions;
    // E.g. a run with a skill bank: the bank is loaded here, once per run, by whichever process
    // executes the episodes (the run row keeps only the id).
    const resolved = await options.resolve({
      policy: run.policy,
      bridge: firstBase(settings.spec.env).bridge,
      taskIds: run.taskIds,
      policyOptions,
    });
    if (resolved.shared) settings.policyOptions = resolved.shared;
    if (resolved.perTask) settings.policyOptionsByTask = resolved.perTask;
  }
  return settings;
}

export function episodeInput(
  run: RunSettings,
  claimed: Pick<ClaimedEpisode, 'taskId' | 'seed'> & { startSeed?: number | null },
): EpisodeInput {
  const { invalidLoopLimit, policyOptions: shared, rewardParams } = run;
  const perTask = run.policyOptionsByTask?.[claimed.taskId];
  const policyOptions = perTask ? { ...(shared ?? {}), ...perTask } : shared;
  return {
    spec: run.spec,
    taskId: claimed.taskId,
    seed: claimed.seed,
    ...(claimed.startSeed !== undefined && claimed.startSeed !== null
      ? { startSeed: claimed.startSeed }
      : {}),
    policyId: run.policy,
    runId: run.id,
    maxSteps: run.maxSteps,
    rewardParams,
    ...(invalidLoopLimit !== null ? { invalidLoopLimit } : {}),
    ...(policyOptions !== undefined ? { policyOptions } : {}),
  };
}
