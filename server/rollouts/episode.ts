// One episode: build the harness, reset with the seed, let the policy act until the episode ends,
// ask the benchmark's verifier, and classify the end as exactly one outcome. Thrown errors are
// classified by origin (harness / policy / infra) and never scored.
import type {
  Action,
  Evaluation,
  Observation,
  ResetResult,
  StepInfo,
  StepResult,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { kindOf } from '../errors.ts';
import type { HarnessNode, HarnessSpec } from '../harness/spec.ts';
import type { StepRecord } from '../harness/types.ts';
import type { AgentSession, Policy, PolicyDecision } from '../policies/types.ts';
import { costAwareReward, MALFORMED_ACTION_NAME, resolveRewardParams } from './reward.ts';
import {
  DEFAULT_INVALID_LOOP_LIMIT,
  DEFAULT_MAX_STEPS,
  type EpisodeError,
  type EpisodeErrorKind,
  type EpisodeInput,
  type EpisodeResult,
  type FailureCategory,
  type LegVerdict,
} from './types.ts';

/** What the runner needs of a harness (the engine's Harness satisfies it structurally). */
export interface EpisodeHarness {
  reset(o: { seed: number; taskId?: string }): Promise<ResetResult>;
  step(action: Action): Promise<StepResult & { record: StepRecord }>;
  evaluate(): Promise<Evaluation>;
  task(): TaskInfo;
  tools(): ToolSpec[];
  textTool(): { name: string; arg: string } | undefined;
  close(): Promise<void>;
  /** Per-leg verdicts of a chain, when the engine offers them. */
  legVerdicts?(): Promise<LegVerdict[]> | LegVerdict[];
}

export interface EpisodeDeps {
  createHarness(spec: HarnessSpec): Promise<EpisodeHarness>;
  getPolicy(id: string): Policy;
}

/** Classifies a thrown error; `origin` says which side threw when the class alone does not tell. */
export function classifyError(error: unknown, origin: 'harness' | 'policy'): EpisodeError {
  const err = error instanceof Error ? error : new Error(String(error));
  const thrown = kindOf(error);
  const kind: EpisodeErrorKind = thrown === 'infra' || thrown === 'harness' ? thrown : origin;
  const out: EpisodeError = { kind, name: err.name, message: err.message };
  const extra = err as Error & { hook?: unknown; line?: unknown; column?: unknown };
  if (typeof extra.hook === 'string') out.hook = extra.hook;
  if (typeof extra.line === 'number') out.line = extra.line;
  if (typeof extra.column === 'number') out.column = extra.column;
  return out;
}

/** The first base leaf of a spec: the bridge the policy is told it plays. */
export function firstBase(node: HarnessNode): { bridge: string; task: string } {
  switch (node.type) {
    case 'base':
      return { bridge: node.bridge, task: node.task };
    case 'stage':
    case 'contract':
      return firstBase(node.env);
    case 'chain':
      return firstBase(node.first);
  }
}

/** A chain's evaluation carries `leg<i>_success` / `leg<i>_score` metrics (server/harness/chain.ts). */
export function legVerdictsFromMetrics(evaluation: Evaluation): LegVerdict[] {
  const legs: LegVerdict[] = [];
  for (const [key, value] of Object.entries(evaluation.metrics)) {
    const m = /^leg(\d+)_success$/.exec(key);
    if (!m) continue;
    const leg = Number(m[1]);
    const score = evaluation.metrics[`leg${leg}_score`];
    legs.push({ leg, success: value === 1, ...(score !== undefined ? { score } : {}) });
  }
  return legs.sort((a, b) => a.leg - b.leg);
}

class Origin extends Error {
  constructor(
    readonly origin: 'harness' | 'policy',
    readonly inner: unknown,
  ) {
    super('origin');
  }
}

async function guard<T>(origin: 'harness' | 'policy', fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new Origin(origin, error);
  }
}

/** An agent-side meta-action (EvoHarness bpe): recorded as a step, never sent to the environment. */
function metaStep(
  index: number,
  decision: Extract<PolicyDecision, { kind: 'meta' }>,
  info: StepInfo,
): StepRecord {
  return {
    index,
    action: decision.action,
    executedAction: null,
    rawObservation: null,
    observation: decision.observation,
    reward: 0,
    terminated: false,
    truncated: false,
    // The environment did not move: keep its info (admissible commands) for the next decision.
    info: decision.invalid ? { ...info, invalid: true } : { ...info, invalid: false },
    invalid: decision.invalid,
    changes: [],
    meta: decision.meta,
  };
}

function malformedStep(index: number, raw: string, reason: string, info: StepInfo): StepRecord {
  const observation: Observation = { text: `Invalid action: ${reason}` };
  return {
    index,
    action: { name: MALFORMED_ACTION_NAME, args: { raw, reason } },
    executedAction: null,
    rawObservation: null,
    observation,
    reward: 0,
    terminated: false,
    truncated: false,
    info: { ...info, invalid: true },
    invalid: true,
    changes: [],
  };
}

export async function runEpisodeWith(
  deps: EpisodeDeps,
  input: EpisodeInput,
): Promise<EpisodeResult> {
  const started = performance.now();
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
  const invalidLoopLimit = input.invalidLoopLimit ?? DEFAULT_INVALID_LOOP_LIMIT;
  const params = resolveRewardParams(input.rewardParams);
  const base = firstBase(input.spec.env);
  const trajectory: StepRecord[] = [];
  let envReward = 0;
  let invalidActions = 0;
  let harness: EpisodeHarness | undefined;
  let session: AgentSession | undefined;
  let task: TaskInfo | undefined;
  let textTool: { name: string; arg: string } | undefined;

  const finish = (
    partial: Omit<
      EpisodeResult,
      'steps' | 'invalidActions' | 'envReward' | 'durationMs' | 'trajectory' | 'taskId' | 'seed'
    >,
  ): EpisodeResult => ({
    ...partial,
    steps: trajectory.length,
    invalidActions,
    envReward,
    durationMs: performance.now() - started,
    trajectory,
    taskId: task?.id ?? input.taskId ?? base.task,
    ...(task?.type ? { taskType: task.type } : {}),
    seed: input.seed,
  });

  try {
    harness = await guard('harness', () => deps.createHarness(input.spec));
    const h = harness;
    const reset = await guard('harness', () =>
      h.reset({ seed: input.seed, ...(input.taskId ? { taskId: input.taskId } : {}) }),
    );
    task = h.task();
    textTool = h.textTool();
    const policy = await guard('policy', () => deps.getPolicy(input.policyId));
    session = await guard('policy', () =>
      policy.start({
        bridge: base.bridge,
        task: task as TaskInfo,
        tools: h.tools(),
        ...(textTool ? { textTool } : {}),
        seed: input.seed,
        maxSteps,
        ...(input.policyOptions ? { options: input.policyOptions } : {}),
      }),
    );
    const s = session;

    let observation = reset.observation;
    let info = reset.info;
    let consecutiveInvalid = 0;
    // Budget spent: 1 per step, except meta-actions that declare a lower cost (bpe `metaCost`).
    // Free steps are bounded too, so a policy cannot loop on them forever.
    let budgetUsed = 0;
    let stop: FailureCategory | 'terminated' = 'step_budget_exhausted';
    while (true) {
      if (budgetUsed >= maxSteps || trajectory.length >= 2 * maxSteps) {
        stop = 'step_budget_exhausted';
        break;
      }
      const decision = await guard('policy', () => s.act(observation, info));
      if (decision.kind === 'give_up') {
        stop = 'gave_up';
        break;
      }
      let record: StepRecord;
      if (decision.kind === 'invalid') {
        record = malformedStep(trajectory.length, decision.raw, decision.reason, info);
      } else if (decision.kind === 'meta') {
        record = metaStep(trajectory.length, decision, info);
      } else {
        const result = await guard('harness', () => h.step(decision.action));
        record = { ...result.record, index: trajectory.length };
        // Agent-side bookkeeping (bpe workspace at decision time) travels with the step.
        if (decision.meta !== undefined) record.meta = decision.meta;
      }
      trajectory.push(record);
      budgetUsed += decision.kind === 'meta' ? Math.min(1, Math.max(0, decision.cost ?? 1)) : 1;
      envReward += record.reward;
      observation = record.observation;
      info = record.info;
      if (record.invalid) {
        invalidActions += 1;
        consecutiveInvalid += 1;
      } else {
        consecutiveInvalid = 0;
      }
      if (record.terminated) {
        stop = 'terminated';
        break;
      }
      if (record.truncated) {
        stop = 'step_budget_exhausted';
        break;
      }
      if (consecutiveInvalid >= invalidLoopLimit) {
        stop = 'invalid_action_loop';
        break;
      }
    }

    const evaluation = await guard('harness', () => h.evaluate());
    const legs = h.legVerdicts
      ? await guard('harness', () => h.legVerdicts?.() ?? [])
      : legVerdictsFromMetrics(evaluation);
    const reward = costAwareReward(
      { success: evaluation.success, trajectory, ...(textTool ? { textTool } : {}) },
      params,
    );
    const common = { evaluation, reward, ...(legs && legs.length > 0 ? { legs } : {}) };
    if (evaluation.success) return finish({ outcome: 'success', ...common });
    const failureCategory: FailureCategory = stop === 'terminated' ? 'wrong_final_state' : stop;
    return finish({ outcome: 'failure', failureCategory, ...common });
  } catch (error) {
    const classified =
      error instanceof Origin
        ? classifyError(error.inner, error.origin)
        : classifyError(error, 'harness');
    return finish({ outcome: 'error', error: classified });
  } finally {
    await session?.close?.().catch(() => undefined);
    await harness?.close().catch(() => undefined);
  }
}

/** The episode runner over the real harness engine and policy registry. */
export async function runEpisode(input: EpisodeInput): Promise<EpisodeResult> {
  const [{ createHarness }, { getPolicy }, { configuredBridges }] = await Promise.all([
    import('../harness/index.ts'),
    import('../policies/index.ts'),
    import('../bridges.ts'),
  ]);
  const bridges = configuredBridges();
  return runEpisodeWith(
    { createHarness: (spec) => createHarness(spec, { bridges }), getPolicy },
    input,
  );
}
