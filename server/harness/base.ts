// The leaf of a stack: a bridge's environment for one task. It is the only layer that touches the
// benchmark, so it records what really reached it (executed action, raw observation).
import type {
  Action,
  ActionableEnv,
  Bridge,
  EnvSnapshot,
  Evaluation,
  Json,
  JsonSchema,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
  TaskFilter,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import { type HarnessLayer, SPEC_TASK, type StackContext, type TextTool } from './layer.ts';
import type { BaseNode } from './spec.ts';

export class BaseLayer implements HarnessLayer {
  private currentTask: TaskInfo;

  constructor(
    private readonly env: ActionableEnv,
    private readonly bridge: Bridge,
    private readonly node: BaseNode,
    private readonly taskInfo: TaskInfo,
    readonly path: string,
    private readonly ctx: StackContext,
  ) {
    this.currentTask = taskInfo;
  }

  get envType(): string {
    return this.env.envType;
  }
  toNode(): BaseNode {
    return this.node;
  }
  textTool(): TextTool | undefined {
    return this.bridge.textTool;
  }
  task(): TaskInfo {
    return this.currentTask;
  }
  listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return this.env.listTasks(filter);
  }
  async reset(options: ResetOptions): Promise<ResetResult> {
    const override = options.taskId !== SPEC_TASK && options.taskId !== this.node.task;
    if (override) {
      const info = await this.bridge.getTask(options.taskId);
      this.currentTask = info ?? { ...this.taskInfo, id: options.taskId };
    } else {
      this.currentTask = this.taskInfo;
    }
    return this.env.reset({ ...options, taskId: this.currentTask.id });
  }
  async step(action: Action): Promise<StepResult> {
    const result = await this.env.step(action);
    this.ctx.trace.executedAction = action;
    this.ctx.trace.rawObservation = result.observation;
    return result;
  }
  observe(): Observation {
    return this.env.observe();
  }
  evaluate(): Promise<Evaluation> {
    return this.env.evaluate();
  }
  getEnvState(): Json {
    return this.env.getEnvState();
  }
  stateSchema(): JsonSchema {
    return this.env.stateSchema();
  }
  tools(): ToolSpec[] {
    return this.env.tools();
  }
  saveState(): Promise<EnvSnapshot> {
    return this.env.saveState();
  }
  close(): Promise<void> {
    return this.env.close();
  }
}
