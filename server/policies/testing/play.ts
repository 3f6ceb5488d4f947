// A minimal episode loop for this folder's tests: bare bridge, no harness, no database. The real
// rollout engine (server/rollouts) owns recording and categorisation; this only mirrors its contract
// (an invalid decision costs a step and shows "Invalid action: <reason>").
import type {
  Action,
  Bridge,
  JsonObject,
  Observation,
  StepInfo,
} from '../../../bridges/core/types.ts';
import type { Policy, PolicyDecision } from '../types.ts';

export interface PlayResult {
  taskId: string;
  taskType: string;
  seed: number;
  success: boolean;
  steps: number;
  invalid: number;
  /** Steps whose feedback was "Nothing happens." (household) or an env-reported invalid action. */
  outcome: 'success' | 'gave_up' | 'budget' | 'terminated';
  commands: string[];
  observations: string[];
}

export async function play(
  bridge: Bridge,
  policy: Policy,
  o: {
    taskId: string;
    seed: number;
    maxSteps?: number;
    options?: JsonObject;
    /** Bridge reset options (e.g. household `dialect`). */
    resetOptions?: JsonObject;
    /** Set-up actions replayed before the policy starts, as a Stage does: not counted, and the
     * policy still sees the reset observation (with the post-set-up info). */
    setup?: Action[];
  },
): Promise<PlayResult> {
  const maxSteps = o.maxSteps ?? 50;
  const env = await bridge.create();
  try {
    const task = await bridge.getTask(o.taskId);
    if (!task) throw new Error(`no task ${o.taskId}`);
    const reset = await env.reset({
      taskId: o.taskId,
      seed: o.seed,
      ...(o.resetOptions ? { options: o.resetOptions } : {}),
    });
    const session = await policy.start({
      bridge: bridge.name,
      task,
      tools: env.tools(),
      ...(bridge.textTool ? { textTool: bridge.textTool } : {}),
      seed: o.seed,
      maxSteps,
      ...(o.options ? { options: o.options } : {}),
    });
    let observation: Observation = reset.observation;
    let info: StepInfo = reset.info;
    for (const action of o.setup ?? []) {
      const r = await env.step(action);
      if (r.info.invalid)
        throw new Error(
          `set-up action ${JSON.stringify(action)} was rejected: ${r.observation.text}`,
        );
      info = r.info;
    }
    let steps = 0;
    let invalid = 0;
    let outcome: PlayResult['outcome'] = 'budget';
    const commands: string[] = [];
    const observations: string[] = [observation.text];
    while (steps < maxSteps) {
      const decision: PolicyDecision = await session.act(observation, info);
      if (decision.kind === 'give_up') {
        outcome = 'gave_up';
        break;
      }
      steps += 1;
      if (decision.kind === 'invalid') {
        invalid += 1;
        commands.push(`<invalid: ${decision.reason}>`);
        observation = { text: `Invalid action: ${decision.reason}` };
        info = { ...info, invalid: true };
        observations.push(observation.text);
        continue;
      }
      const args = decision.action.args;
      const text = bridge.textTool ? args[bridge.textTool.arg] : undefined;
      commands.push(
        typeof text === 'string' ? text : `${decision.action.name} ${JSON.stringify(args)}`,
      );
      const r = await env.step(decision.action);
      if (r.info.invalid) invalid += 1;
      observation = r.observation;
      info = r.info;
      observations.push(observation.text);
      if (r.terminated || r.truncated) {
        outcome = 'terminated';
        break;
      }
    }
    await session.close?.();
    const evaluation = await env.evaluate();
    return {
      taskId: o.taskId,
      taskType: task.type,
      seed: o.seed,
      success: evaluation.success,
      steps,
      invalid,
      outcome: evaluation.success ? 'success' : outcome,
      commands,
      observations,
    };
  } finally {
    await env.close();
  }
}

/** Success rate per task type over the given results. */
export function ratesByType(
  results: PlayResult[],
): Record<string, { n: number; success: number; rate: number }> {
  const out: Record<string, { n: number; success: number; rate: number }> = {};
  for (const r of results) {
    const e = out[r.taskType] ?? { n: 0, success: 0, rate: 0 };
    e.n += 1;
    if (r.success) e.success += 1;
    e.rate = e.success / e.n;
    out[r.taskType] = e;
  }
  return out;
}
