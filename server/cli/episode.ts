// One CLI episode (`harness step`, `harness play`): build the harness, reset, take actions one at a
// time. Episode runs where the hooks run; EpisodeClient is how a command drives it — in a worker of
// the engine's IsolatedPool (a hook stuck in a long built-in gets its thread terminated instead of
// hanging the CLI) or in-process (tests, --in-process).
import { fileURLToPath } from 'node:url';
import type {
  Action,
  BridgeResolver,
  Evaluation,
  Json,
  Observation,
  StepInfo,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { HarnessCodeError, InvalidInputError } from '../errors.ts';
import { createHarness, type Harness, type HarnessSpec, type TextTool } from '../harness/index.ts';
import { IsolatedPool } from '../harness/worker-pool.ts';
import type { ActionLine } from './spec-input.ts';

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

export interface HarnessErrorInfo {
  message: string;
  hook?: string;
  line?: number;
  column?: number;
}

export interface EpisodeStart {
  task: TaskInfo;
  tools: ToolSpec[];
  textTool?: TextTool;
  initial: { observation: Observation; info: StepInfo; state?: Json };
}

export type StepOutcome =
  | { step: StepOutput; textTool?: TextTool; tools: ToolSpec[] }
  | { harnessError: HarnessErrorInfo };

export interface EpisodeEnd {
  evaluation: Evaluation;
  agentSteps: number;
}

export interface OpenInput {
  spec: HarnessSpec;
  seed: number;
  state: boolean;
}

function harnessErrorInfo(error: HarnessCodeError): HarnessErrorInfo {
  return {
    message: error.message,
    ...(error.hook !== undefined ? { hook: error.hook } : {}),
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
  };
}

/** The episode itself; plain JSON in and out of every method so it can sit behind a worker. */
export class Episode {
  private constructor(private readonly harness: Harness) {}

  static async open(
    input: OpenInput,
    bridges: BridgeResolver,
  ): Promise<{ episode: Episode; start: EpisodeStart }> {
    const harness = await createHarness(input.spec, { bridges });
    try {
      const reset = await harness.reset({ seed: input.seed });
      const textTool = harness.textTool();
      const start: EpisodeStart = {
        task: harness.task(),
        tools: harness.tools(),
        ...(textTool ? { textTool } : {}),
        initial: {
          observation: reset.observation,
          info: reset.info,
          ...(input.state ? { state: harness.getEnvState() } : {}),
        },
      };
      return { episode: new Episode(harness), start };
    } catch (error) {
      await harness.close();
      throw error;
    }
  }

  /** Plain text goes to the text tool of the bridge that is active now (chains may switch bridges). */
  toAction(entry: ActionLine): Action {
    if ('action' in entry) return entry.action;
    const tool = this.harness.textTool();
    if (!tool) {
      throw new InvalidInputError(
        `line ${entry.line}: plain text '${entry.text}' needs a bridge with a text tool; write a JSON action instead`,
      );
    }
    return { name: tool.name, args: { [tool.arg]: entry.text } };
  }

  async step(entry: ActionLine, withState: boolean): Promise<StepOutcome> {
    const action = this.toAction(entry);
    try {
      const result = await this.harness.step(action);
      const step: StepOutput = {
        action,
        observation: result.observation,
        reward: result.reward,
        terminated: result.terminated,
        truncated: result.truncated,
        info: result.info,
      };
      if (result.record.blocked !== undefined) step.blocked = result.record.blocked;
      if (withState) step.state = this.harness.getEnvState();
      const textTool = this.harness.textTool();
      return { step, tools: this.harness.tools(), ...(textTool ? { textTool } : {}) };
    } catch (error) {
      if (error instanceof HarnessCodeError) return { harnessError: harnessErrorInfo(error) };
      throw error;
    }
  }

  state(): Json {
    return this.harness.getEnvState();
  }

  async finish(): Promise<EpisodeEnd> {
    return { evaluation: await this.harness.evaluate(), agentSteps: this.harness.agentSteps };
  }

  close(): Promise<void> {
    return this.harness.close();
  }
}

export interface EpisodeClient {
  open(input: OpenInput): Promise<EpisodeStart>;
  step(entry: ActionLine, withState: boolean): Promise<StepOutcome>;
  state(): Promise<Json>;
  /** undefined when the episode's worker was terminated (a hook overran): nothing left to evaluate. */
  finish(): Promise<EpisodeEnd | undefined>;
  close(): Promise<void>;
}

export class InProcessEpisode implements EpisodeClient {
  private episode: Episode | undefined;

  constructor(private readonly bridges: BridgeResolver) {}

  async open(input: OpenInput): Promise<EpisodeStart> {
    const { episode, start } = await Episode.open(input, this.bridges);
    this.episode = episode;
    return start;
  }
  private current(): Episode {
    if (!this.episode) throw new InvalidInputError('episode not open');
    return this.episode;
  }
  step(entry: ActionLine, withState: boolean): Promise<StepOutcome> {
    return this.current().step(entry, withState);
  }
  async state(): Promise<Json> {
    return this.current().state();
  }
  finish(): Promise<EpisodeEnd> {
    return this.current().finish();
  }
  async close(): Promise<void> {
    await this.episode?.close();
    this.episode = undefined;
  }
}

const WORKER_MODULE = fileURLToPath(new URL('./episode-worker.ts', import.meta.url));

/** The episode in a worker thread; one worker, so every call reaches the same episode. */
export class IsolatedEpisode implements EpisodeClient {
  private readonly pool: IsolatedPool;
  private killed = false;

  constructor(options: { hookLimitMs?: number } = {}) {
    this.pool = new IsolatedPool({
      size: 1,
      module: WORKER_MODULE,
      ...(options.hookLimitMs !== undefined ? { hookLimitMs: options.hookLimitMs } : {}),
    });
  }

  open(input: OpenInput): Promise<EpisodeStart> {
    return this.pool.run<EpisodeStart>('open', input);
  }

  async step(entry: ActionLine, withState: boolean): Promise<StepOutcome> {
    if (this.killed)
      return { harnessError: { message: 'the episode already ended with a harness error' } };
    try {
      return await this.pool.run<StepOutcome>('step', { entry, withState });
    } catch (error) {
      // The watchdog terminated the worker: the episode is gone with it.
      if (!(error instanceof HarnessCodeError)) throw error;
      this.killed = true;
      return { harnessError: harnessErrorInfo(error) };
    }
  }

  state(): Promise<Json> {
    return this.pool.run<Json>('state', {});
  }

  async finish(): Promise<EpisodeEnd | undefined> {
    if (this.killed) return undefined;
    return this.pool.run<EpisodeEnd>('finish', {});
  }

  async close(): Promise<void> {
    if (!this.killed) await this.pool.run('close', {}).catch(() => undefined);
    await this.pool.close();
  }
}

export interface StepEpisodeInput extends OpenInput {
  lines: ActionLine[];
}

export interface StepEpisodeOutput {
  task: { id: string; goal: string };
  seed: number;
  initial: { observation: Observation; state?: Json };
  steps: StepOutput[];
  /** null only when a hook overran and its worker was terminated: there is nothing left to evaluate. */
  evaluation: Evaluation | null;
  agentSteps: number;
  /** Action lines left over after the episode ended. */
  ignoredActions?: number;
  /** A hook failed: the episode ended as a harness error, not a task failure. */
  harnessError?: HarnessErrorInfo;
}

/** `harness step`: reset, replay the lines until the episode ends, collect everything. */
export async function runStepEpisode(
  client: EpisodeClient,
  input: StepEpisodeInput,
): Promise<StepEpisodeOutput> {
  try {
    const start = await client.open({ spec: input.spec, seed: input.seed, state: input.state });
    const out: StepEpisodeOutput = {
      task: { id: start.task.id, goal: start.task.goal },
      seed: input.seed,
      initial: {
        observation: start.initial.observation,
        ...(start.initial.state !== undefined ? { state: start.initial.state } : {}),
      },
      steps: [],
      evaluation: null,
      agentSteps: 0,
    };
    for (const [index, entry] of input.lines.entries()) {
      const outcome = await client.step(entry, input.state);
      if ('harnessError' in outcome) {
        out.harnessError = outcome.harnessError;
        break;
      }
      out.steps.push(outcome.step);
      if (outcome.step.terminated || outcome.step.truncated) {
        const left = input.lines.length - index - 1;
        if (left > 0) out.ignoredActions = left;
        break;
      }
    }
    const end = await client.finish();
    if (end) {
      out.evaluation = end.evaluation;
      out.agentSteps = end.agentSteps;
    } else {
      out.agentSteps = out.steps.length;
    }
    return out;
  } finally {
    await client.close();
  }
}
