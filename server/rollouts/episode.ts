// One episode: build the harness, reset with the seed, let the policy act until the episode ends,
// ask the benchmark's verifier, and classify the end as exactly one outcome. Thrown errors are
// classified by origin (harness / policy / infra) and never scored.
import type {
  Action,
  BridgeResolver,
  Evaluation,
  Observation,
  ResetResult,
  StepInfo,
  StepResult,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import {
  addUsage,
  type DecisionKind,
  type EpisodeLlm,
  type TokenUsage,
  ZERO_USAGE,
} from '../../contracts/llm.ts';
import { endsInInvalidLoop } from '../../contracts/outcomes.ts';
import { firstBase, type HarnessSpec } from '../../contracts/spec.ts';
import { kindOf } from '../errors.ts';
import { createHarness } from '../harness/index.ts';
import type { StepRecord } from '../harness/types.ts';
import { getPolicy } from '../policies/index.ts';
import type { AgentSession, Policy, PolicyDecision } from '../policies/types.ts';
import { costAwareReward, MALFORMED_ACTION_NAME, resolveRewardParams } from './reward.ts';
import {
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

export { firstBase };

/** A chain's evaluation carries `leg<i>_success` / `leg<i>_score` metrics (server/harness/chain.ts). */
export function legVerdictsFromMetrics(evaluation: Evaluation): LegVerdict[] {
  const legs: LegVerdict[] = [];
  for (const [key, value] of Object.entries(evaluation.metrics)) {
    const m = /^leg(\d+)_success$/.exec(key);
    if (!m) continue;
    const leg = Number(m[1]);
    const score = evaluation.metrics[`leg${leg}_score`];
    const counts = evaluation.metrics[`leg${leg}_counts`];
    legs.push({
      leg,
      success: value === 1,
      ...(score !== undefined ? { score } : {}),
      ...(counts !== undefined ? { counts: counts === 1 } : {}),
    });
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

/** What an episode has done so far: the steps, the counters, and where it ends. */
interface Play {
  trajectory: StepRecord[];
  envReward: number;
  invalidActions: number;
  stop: FailureCategory | 'terminated';
  /** Tokens the policy reported, by kind of step. */
  usage: Partial<Record<DecisionKind, TokenUsage>>;
}

/** What an episode has opened so far, closed whatever happens. */
interface Opened {
  harness?: EpisodeHarness;
  session?: AgentSession;
}

/**
 * Builds the harness, resets it and starts the policy's session (each fault tagged by its side);
 * what it opens goes into `opened` as it is opened, so a failure half-way still closes it.
 */
async function startEpisode(
  deps: EpisodeDeps,
  input: EpisodeInput,
  maxSteps: number,
  opened: Opened,
) {
  const base = firstBase(input.spec.env);
  const harness = await guard('harness', () => deps.createHarness(input.spec));
  opened.harness = harness;
  // A GRPO group shares one start state: the env resets with the group's start seed, the policy
  // gets its own seed.
  const reset = await guard('harness', () =>
    harness.reset({
      seed: input.startSeed ?? input.seed,
      ...(input.taskId ? { taskId: input.taskId } : {}),
    }),
  );
  const task = harness.task();
  const textTool = harness.textTool();
  const policy = await guard('policy', () => deps.getPolicy(input.policyId));
  opened.session = await guard('policy', () =>
    policy.start({
      bridge: base.bridge,
      task,
      tools: harness.tools(),
      ...(textTool ? { textTool } : {}),
      seed: input.seed,
      maxSteps,
      ...(input.policyOptions ? { options: input.policyOptions } : {}),
      ...(input.runId ? { runId: input.runId } : {}),
    }),
  );
  const session = opened.session;
  return { harness, session, reset, task, textTool };
}

/** One decision of the policy, turned into a recorded step (meta-actions never reach the env). */
async function takeStep(
  h: EpisodeHarness,
  s: AgentSession,
  index: number,
  observation: Observation,
  info: StepInfo,
): Promise<{ record: StepRecord; cost: number; kind: DecisionKind } | 'give_up'> {
  const decision = await guard('policy', () => s.act(observation, info));
  if (decision.kind === 'give_up') return 'give_up';
  // An LLM policy's tokens, reasoning and reply travel with the step, whatever its kind.
  const llm = decision.llm ? { llm: decision.llm } : {};
  if (decision.kind === 'invalid') {
    const record = malformedStep(index, decision.raw, decision.reason, info);
    return { record: { ...record, ...llm }, cost: 1, kind: 'invalid' };
  }
  if (decision.kind === 'meta') {
    // Budget spent: 1 per step, except meta-actions that declare a lower cost (bpe `metaCost`,
    // a free ReAct think).
    return {
      record: { ...metaStep(index, decision, info), ...llm },
      cost: Math.min(1, Math.max(0, decision.cost ?? 1)),
      kind: decision.llm?.think ? 'think' : 'meta',
    };
  }
  const result = await guard('harness', () => h.step(decision.action));
  const record: StepRecord = { ...result.record, index, ...llm };
  // Agent-side bookkeeping (bpe workspace at decision time) travels with the step.
  if (decision.meta !== undefined) record.meta = decision.meta;
  return { record, cost: 1, kind: 'env' };
}

/** The agent acts until the episode terminates, is cut off, or the policy stops. */
async function playLoop(
  h: EpisodeHarness,
  s: AgentSession,
  reset: ResetResult,
  limits: { maxSteps: number; invalidLoopLimit: number | undefined },
  play: Play,
): Promise<void> {
  let observation = reset.observation;
  let info = reset.info;
  let consecutiveInvalid = 0;
  // Free steps are bounded too, so a policy cannot loop on them forever.
  let budgetUsed = 0;
  for (;;) {
    if (budgetUsed >= limits.maxSteps || play.trajectory.length >= 2 * limits.maxSteps) {
      play.stop = 'step_budget_exhausted';
      return;
    }
    const step = await takeStep(h, s, play.trajectory.length, observation, info);
    if (step === 'give_up') {
      play.stop = 'gave_up';
      return;
    }
    const { record } = step;
    play.trajectory.push(record);
    if (record.llm?.usage) {
      play.usage[step.kind] = addUsage(play.usage[step.kind] ?? ZERO_USAGE, record.llm.usage);
    }
    budgetUsed += step.cost;
    play.envReward += record.reward;
    observation = record.observation;
    info = record.info;
    consecutiveInvalid = record.invalid ? consecutiveInvalid + 1 : 0;
    if (record.invalid) play.invalidActions += 1;
    if (record.terminated) play.stop = 'terminated';
    else if (record.truncated) play.stop = 'step_budget_exhausted';
    else if (limits.invalidLoopLimit !== undefined && consecutiveInvalid >= limits.invalidLoopLimit)
      play.stop = 'invalid_action_loop';
    else continue;
    return;
  }
}

/**
 * Why a failed episode failed. An episode the verifier judged after it terminated is a wrong final
 * state; one cut off (budget, give-up) while mostly typing invalid actions is an invalid-action
 * loop by the rule in contracts/outcomes.ts, as is one the consecutive-invalid limit stopped.
 */
export function failureCategoryOf(play: {
  stop: Play['stop'];
  trajectory: readonly { invalid: boolean }[];
}): FailureCategory {
  if (play.stop === 'terminated') return 'wrong_final_state';
  if (play.stop === 'invalid_action_loop') return play.stop;
  return endsInInvalidLoop(play.trajectory.map((s) => s.invalid))
    ? 'invalid_action_loop'
    : play.stop;
}

export async function runEpisodeWith(
  deps: EpisodeDeps,
  input: EpisodeInput,
): Promise<EpisodeResult> {
  const started = performance.now();
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
  // No cut-off unless the run asks for one: ALFWorld and the papers have none.
  const invalidLoopLimit = input.invalidLoopLimit;
  const params = resolveRewardParams(input.rewardParams);
  const play: Play = {
    trajectory: [],
    envReward: 0,
    invalidActions: 0,
    stop: 'step_budget_exhausted',
    usage: {},
  };
  const opened: Opened = {};
  let task: TaskInfo | undefined;
  let initialObservation: string | undefined;

  const finish = (
    partial: Omit<
      EpisodeResult,
      | 'steps'
      | 'invalidActions'
      | 'envReward'
      | 'durationMs'
      | 'trajectory'
      | 'taskId'
      | 'seed'
      | 'usage'
      | 'llm'
    >,
  ): EpisodeResult => ({
    ...partial,
    ...llmOf(play, opened.session),
    steps: play.trajectory.length,
    invalidActions: play.invalidActions,
    envReward: play.envReward,
    durationMs: performance.now() - started,
    trajectory: play.trajectory,
    taskId: task?.id ?? input.taskId ?? firstBase(input.spec.env).task,
    ...(task?.type ? { taskType: task.type } : {}),
    seed: input.seed,
    ...(input.startSeed !== undefined ? { startSeed: input.startSeed } : {}),
    ...(initialObservation !== undefined ? { initialObservation } : {}),
  });

  try {
    const episode = await startEpisode(deps, input, maxSteps, opened);
    task = episode.task;
    initialObservation = episode.reset.observation.text;
    const h = episode.harness;
    await playLoop(h, episode.session, episode.reset, { maxSteps, invalidLoopLimit }, play);
    const evaluation = await guard('harness', () => h.evaluate());
    const legs = h.legVerdicts
      ? await guard('harness', () => h.legVerdicts?.() ?? [])
      : legVerdictsFromMetrics(evaluation);
    const textTool = episode.textTool;
    const reward = costAwareReward(
      {
        success: evaluation.success,
        trajectory: play.trajectory,
        ...(textTool ? { textTool } : {}),
      },
      params,
    );
    const common = { evaluation, reward, ...(legs && legs.length > 0 ? { legs } : {}) };
    if (evaluation.success) return finish({ outcome: 'success', ...common });
    return finish({ outcome: 'failure', failureCategory: failureCategoryOf(play), ...common });
  } catch (error) {
    const classified =
      error instanceof Origin
        ? classifyError(error.inner, error.origin)
        : classifyError(error, 'harness');
    return finish({ outcome: 'error', error: classified });
  } finally {
    await opened.session?.close?.().catch(() => undefined);
    await opened.harness?.close().catch(() => undefined);
  }
}

/** The episode's tokens (the sum of its steps') and its LLM policy's report, when it has them. */
function llmOf(
  play: Play,
  session: AgentSession | undefined,
): Pick<EpisodeResult, 'usage' | 'llm'> {
  const kinds = Object.values(play.usage);
  const usage =
    kinds.length > 0 ? kinds.reduce((sum, u) => addUsage(sum, u), ZERO_USAGE) : undefined;
  let report: ReturnType<NonNullable<AgentSession['report']>> | undefined;
  try {
    report = session?.report?.();
  } catch {
    report = undefined;
  }
  const llm: EpisodeLlm | undefined = report?.llm
    ? { ...report.llm, byKind: play.usage }
    : undefined;
  return { ...(usage ? { usage } : {}), ...(llm ? { llm } : {}) };
}

/** The episode runner over the real harness engine and policy registry. */
export function runEpisode(input: EpisodeInput, bridges: BridgeResolver): Promise<EpisodeResult> {
  return runEpisodeWith(
    { createHarness: (spec) => createHarness(spec, { bridges }), getPolicy },
    input,
  );
}
