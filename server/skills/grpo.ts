// GRPO export (`harness export --run <id> --format grpo`): episodes of the same task (and the same
// run, hence the same harness and seed set) form groups of n; each sample carries the prompt, the
// actions, the cost-aware reward term by term (recomputed with the run's parameters, optionally
// overridden) and its advantage normalised within the group: A = (R − mean) / std, or R − mean when
// std = 0. Errors are never scored, so they are left out.

import type { BridgeResolver, Json } from '../../bridges/core/types.ts';
import { firstIssue } from '../../contracts/issues.ts';
import { RewardParamsSchema } from '../../contracts/runs.ts';
import { firstBase } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError } from '../errors.ts';
import type { StepRecord } from '../harness/types.ts';
import { exportRun, getRunSummary } from '../rollouts/reads.ts';
import { costAwareReward, resolveRewardParams } from '../rollouts/reward.ts';
import type { CostAwareReward, RewardParams } from '../rollouts/types.ts';
import { commandOf } from './digest.ts';

export const DEFAULT_GROUP_SIZE = 8;

export interface GrpoSample {
  group: string;
  groupSize: number;
  runId: string;
  episodeId: string;
  taskId: string;
  taskType: string | null;
  seed: number;
  prompt: string;
  actions: string[];
  observations: string[];
  success: boolean;
  steps: number;
  reward: number;
  terms: CostAwareReward;
  advantage: number;
}

export interface GroupInput {
  episodeId: string;
  taskId: string;
  seed: number;
  reward: number;
}

/** Splits episodes into groups of at most n per task (seed order) and computes advantages. */
export function groupAdvantages<T extends GroupInput>(
  items: T[],
  n: number = DEFAULT_GROUP_SIZE,
): (T & { group: string; groupSize: number; advantage: number })[] {
  const byTask = new Map<string, T[]>();
  for (const it of items) byTask.set(it.taskId, [...(byTask.get(it.taskId) ?? []), it]);
  const out: (T & { group: string; groupSize: number; advantage: number })[] = [];
  for (const [taskId, list] of [...byTask.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...list].sort(
      (a, b) => a.seed - b.seed || a.episodeId.localeCompare(b.episodeId),
    );
    for (let g = 0; g * n < sorted.length; g += 1) {
      const members = sorted.slice(g * n, g * n + n);
      const mean = members.reduce((s, m) => s + m.reward, 0) / members.length;
      const variance = members.reduce((s, m) => s + (m.reward - mean) ** 2, 0) / members.length;
      const std = Math.sqrt(variance);
      for (const m of members) {
        out.push({
          ...m,
          group: `${taskId}#${g}`,
          groupSize: members.length,
          advantage: std > 1e-12 ? (m.reward - mean) / std : m.reward - mean,
        });
      }
    }
  }
  return out;
}

/** Reward parameters a run or an export may override (any subset). */
export const RewardOverridesSchema = RewardParamsSchema.partial();

/** Parses `k=v,k=v` reward overrides (the CLI's --reward). */
export function parseRewardOverrides(text: string | undefined): Partial<RewardParams> {
  if (!text) return {};
  const raw: Record<string, number> = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [k, v] = part.split('=');
    if (!k || v === undefined || v.trim() === '' || Number.isNaN(Number(v)))
      throw new InvalidInputError(`reward parameter '${part}' must look like name=number`);
    raw[k.trim()] = Number(v);
  }
  const parsed = RewardOverridesSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InvalidInputError(
      `reward parameters: ${firstIssue(parsed.error, '')} (known: ${Object.keys(RewardOverridesSchema.shape).join(', ')})`,
    );
  }
  return parsed.data;
}

function promptOf(goal: string, bridge: string): string {
  return `You are an agent in the ${bridge} environment. Your task is to: ${goal}`;
}

/** The run as GRPO samples (one per scored episode), grouped and normalised. */
export async function grpoSamples(
  { db, bridges }: { db: Db; bridges: BridgeResolver },
  runId: string,
  o: { groupSize?: number; reward?: Partial<RewardParams> } = {},
): Promise<GrpoSample[]> {
  const run = await getRunSummary(db, runId);
  const base = firstBase(run.spec.env);
  const bridge = await bridges.get(base.bridge);
  // The run's reward parameters (its policy options and loop limit are columns of their own).
  const params = resolveRewardParams({ ...run.rewardParams, ...(o.reward ?? {}) });
  const textTool = bridge?.textTool;
  const items: (Omit<GrpoSample, 'group' | 'groupSize' | 'advantage'> & GroupInput)[] = [];
  for await (const e of exportRun(db, runId)) {
    if (e.outcome !== 'success' && e.outcome !== 'failure') continue;
    const task = await bridge?.getTask(e.taskId);
    const success = e.outcome === 'success';
    const trajectory: StepRecord[] = e.trajectory;
    const terms = costAwareReward(
      { success, trajectory, ...(textTool ? { textTool } : {}) },
      params,
    );
    items.push({
      runId,
      episodeId: e.id,
      taskId: e.taskId,
      taskType: task?.type ?? null,
      seed: e.seed,
      prompt: promptOf(task?.goal ?? e.taskId, base.bridge),
      actions: trajectory.map((s) => commandOf(s, textTool)),
      observations: trajectory.map((s) => s.observation.text),
      success,
      steps: trajectory.length,
      reward: terms.total,
      terms,
    });
  }
  return groupAdvantages(items, o.groupSize ?? DEFAULT_GROUP_SIZE);
}

export function grpoLine(sample: GrpoSample): string {
  return `${JSON.stringify(sample as unknown as Json)}\n`;
}

/** JSONL lines for `harness export --format grpo` (flags as typed on the command line). */
export async function* grpoLines(
  store: { db: Db; bridges: BridgeResolver },
  runId: string,
  flags: { groupSize?: string | undefined; reward?: string | undefined },
): AsyncGenerator<string> {
  const n = flags.groupSize === undefined ? DEFAULT_GROUP_SIZE : Number(flags.groupSize);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidInputError(
      `--group-size must be a positive integer, got '${flags.groupSize}'`,
    );
  const samples = await grpoSamples(store, runId, {
    groupSize: n,
    reward: parseRewardOverrides(flags.reward),
  });
  for (const s of samples) yield grpoLine(s);
}
