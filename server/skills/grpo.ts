// GRPO export (`harness export --run <id> --format grpo`): a group is the episodes of one task that
// share a start state — the same start seed (`harness rollout --group-size G` plays every start
// seed G times with different policy seeds; EvoHarness's GRPO compares rollouts from one state).
// Each sample carries the prompt, the first observation, the actions, the cost-aware reward term by
// term (recomputed with the run's parameters, optionally overridden) and its advantage normalised
// within the group: A = (R − mean) / std, or R − mean when std = 0. Errors are never scored, so
// they are left out. A run played without groups has groups of one (advantage 0): there is
// nothing alike to compare.

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

export interface GrpoSample {
  group: string;
  groupSize: number;
  runId: string;
  episodeId: string;
  taskId: string;
  taskType: string | null;
  /** The policy's seed. */
  seed: number;
  /** The env's reset seed: the group's shared start state. */
  startSeed: number;
  prompt: string;
  /** What the agent saw first: the same for every sample of a group. */
  initialObservation: string | null;
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
  /** The policy's seed (order within a group). */
  seed: number;
  /** The env's reset seed: episodes of one task and one start seed share a start state. */
  startSeed: number;
  reward: number;
}

/** The group of an episode: its task and its start seed. */
export function groupKey(item: { taskId: string; startSeed: number }): string {
  return `${item.taskId}@start${item.startSeed}`;
}

/** Groups episodes by shared start state (task, start seed) and computes advantages. */
export function groupAdvantages<T extends GroupInput>(
  items: T[],
): (T & { group: string; groupSize: number; advantage: number })[] {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const key = groupKey(it);
    groups.set(key, [...(groups.get(key) ?? []), it]);
  }
  const out: (T & { group: string; groupSize: number; advantage: number })[] = [];
  const ordered = [...groups.entries()].sort(
    ([, [a]], [, [b]]) =>
      (a as T).taskId.localeCompare((b as T).taskId) || (a as T).startSeed - (b as T).startSeed,
  );
  for (const [group, list] of ordered) {
    const members = [...list].sort(
      (a, b) => a.seed - b.seed || a.episodeId.localeCompare(b.episodeId),
    );
    const mean = members.reduce((s, m) => s + m.reward, 0) / members.length;
    const variance = members.reduce((s, m) => s + (m.reward - mean) ** 2, 0) / members.length;
    const std = Math.sqrt(variance);
    for (const m of members) {
      out.push({
        ...m,
        group,
        groupSize: members.length,
        advantage: std > 1e-12 ? (m.reward - mean) / std : m.reward - mean,
      });
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
  o: { reward?: Partial<RewardParams> } = {},
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
      startSeed: e.startSeed ?? e.seed,
      prompt: promptOf(task?.goal ?? e.taskId, base.bridge),
      initialObservation: e.initialObservation,
      actions: trajectory.map((s) => commandOf(s, textTool)),
      observations: trajectory.map((s) => s.observation.text),
      success,
      steps: trajectory.length,
      reward: terms.total,
      terms,
    });
  }
  return groupAdvantages(items);
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
  if (flags.groupSize !== undefined)
    throw new InvalidInputError(
      '--group-size belongs to the rollout: `harness rollout --group-size G` plays every start seed G times, and the export groups episodes by shared start seed',
    );
  const samples = await grpoSamples(store, runId, { reward: parseRewardOverrides(flags.reward) });
  for (const s of samples) yield grpoLine(s);
}
