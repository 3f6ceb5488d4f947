// One `harness step` episode: build the harness, reset, replay the action lines, collect every step.
// Pure input -> output (plain JSON both ways) so it can run in a worker thread as well as in-process.
import type { Action, Evaluation, Json, Observation, StepInfo } from '../../bridges/core/types.ts';
import { HarnessCodeError, InvalidInputError } from '../errors.ts';
import { createHarness, type HarnessSpec } from '../harness/index.ts';
import type { ActionLine } from './spec-input.ts';

export interface StepEpisodeInput {
  spec: HarnessSpec;
  seed: number;
  lines: ActionLine[];
  /** Include the state view after reset and after every step. */
  state: boolean;
}

export interface StepOutput {
  action: Action;
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
  blocked?: string;
  state?: Json;
}

export interface StepEpisodeOutput {
  task: { id: string; goal: string };
  seed: number;
  initial: { observation: Observation; state?: Json };
  steps: StepOutput[];
  evaluation: Evaluation;
  agentSteps: number;
  /** Action lines left over after the episode ended. */
  ignoredActions?: number;
  /** A hook failed mid-episode: the episode ended as a harness error (not a task failure). */
  harnessError?: { message: string; hook?: string; line?: number; column?: number };
}

export async function runStepEpisode(input: StepEpisodeInput): Promise<StepEpisodeOutput> {
  const harness = await createHarness(input.spec);
  try {
    const reset = await harness.reset({ seed: input.seed });
    const task = harness.task();
    const out: StepEpisodeOutput = {
      task: { id: task.id, goal: task.goal },
      seed: input.seed,
      initial: {
        observation: reset.observation,
        ...(input.state ? { state: harness.getEnvState() } : {}),
      },
      steps: [],
      evaluation: { success: false, score: 0, metrics: {} },
      agentSteps: 0,
    };
    let done = false;
    for (const [index, entry] of input.lines.entries()) {
      if (done) {
        out.ignoredActions = input.lines.length - index;
        break;
      }
      let action: Action;
      if ('action' in entry) action = entry.action;
      else {
        const tool = harness.textTool();
        if (!tool) {
          throw new InvalidInputError(
            `actions line ${entry.line}: plain text '${entry.text}' needs a bridge with a text tool; write a JSON action instead`,
          );
        }
        action = { name: tool.name, args: { [tool.arg]: entry.text } };
      }
      try {
        const result = await harness.step(action);
        const step: StepOutput = {
          action,
          observation: result.observation,
          reward: result.reward,
          terminated: result.terminated,
          truncated: result.truncated,
          info: result.info,
        };
        if (result.record.blocked !== undefined) step.blocked = result.record.blocked;
        if (input.state) step.state = harness.getEnvState();
        out.steps.push(step);
        done = result.terminated || result.truncated;
      } catch (error) {
        if (!(error instanceof HarnessCodeError)) throw error;
        out.harnessError = {
          message: error.message,
          ...(error.hook !== undefined ? { hook: error.hook } : {}),
          ...(error.line !== undefined ? { line: error.line } : {}),
          ...(error.column !== undefined ? { column: error.column } : {}),
        };
        break;
      }
    }
    out.evaluation = await harness.evaluate();
    out.agentSteps = harness.agentSteps;
    return out;
  } finally {
    await harness.close();
  }
}
