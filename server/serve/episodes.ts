// The harnessed environments of served sessions, by session id: one Harness per session (its own
// sandbox host, so hooks of two sessions never share a runtime), reset for each episode. The same
// functions run inside a worker thread (session-worker.ts, the default) and in-process (tests,
// benches).
import '#server-only';
import type {
  Action,
  BridgeResolver,
  Evaluation,
  Json,
  JsonSchema,
  Observation,
  StepInfo,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { NotFoundError } from '../errors.ts';
import { createHarness, type Harness, parseSpec } from '../harness/index.ts';
import type { StepRecord } from '../harness/types.ts';

export interface OpenInput {
  id: string;
  spec: unknown;
  seed: number;
  taskId?: string;
}

export interface EpisodeStart {
  observation: Observation;
  info: StepInfo;
  task: TaskInfo;
  textTool: { name: string; arg: string } | null;
  tools: ToolSpec[];
  stateSchema: JsonSchema;
}

export interface StepOutcome {
  record: StepRecord;
  /** The env ended the episode (terminated or truncated). */
  ended: boolean;
  agentSteps: number;
}

export class ServedEpisodes {
  private readonly harnesses = new Map<string, Harness>();

  constructor(private readonly bridges: BridgeResolver) {}

  get open(): number {
    return this.harnesses.size;
  }

  private get(id: string): Harness {
    const h = this.harnesses.get(id);
    if (!h) throw new NotFoundError(`served session ${id} has no environment (closed or lost)`);
    return h;
  }

  /** Resets the session's harness (built on its first episode) for a new episode. */
  async reset(input: OpenInput): Promise<EpisodeStart> {
    let harness = this.harnesses.get(input.id);
    if (!harness) {
      harness = await createHarness(parseSpec(input.spec), { bridges: this.bridges });
      this.harnesses.set(input.id, harness);
    }
    try {
      const reset = await harness.reset(
        input.taskId ? { seed: input.seed, taskId: input.taskId } : { seed: input.seed },
      );
      return {
        observation: reset.observation,
        info: reset.info,
        task: harness.task(),
        textTool: harness.textTool() ?? null,
        tools: harness.tools(),
        stateSchema: harness.stateSchema(),
      };
    } catch (e) {
      await this.close(input.id);
      throw e;
    }
  }

  async step(id: string, action: Action): Promise<StepOutcome> {
    const harness = this.get(id);
    const result = await harness.step(action);
    return {
      record: result.record,
      ended: result.terminated || result.truncated,
      agentSteps: harness.agentSteps,
    };
  }

  evaluate(id: string): Promise<Evaluation> {
    return this.get(id).evaluate();
  }

  state(id: string): Json {
    return this.get(id).getEnvState();
  }

  async close(id: string): Promise<void> {
    const h = this.harnesses.get(id);
    this.harnesses.delete(id);
    await h?.close();
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.harnesses.keys()]) await this.close(id);
  }
}
