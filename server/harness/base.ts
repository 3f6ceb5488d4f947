// The leaf of a stack: a bridge's environment for one task. It is the only layer that touches the
// benchmark, so it records what really reached it (executed action, raw observation); everything
// else is delegated to the bridge's env.
import type {
  Action,
  ActionableEnv,
  Bridge,
  Observation,
  ResetOptions,
  ResetResult,
  StepResult,
  TaskInfo,
} from '../../bridges/core/types.ts';
import { capObservation } from '../../contracts/text.ts';
import { DelegatingEnv } from './delegate.ts';
import { type HarnessLayer, SPEC_TASK, type StackContext, type TextTool } from './layer.ts';
import type { BaseNode } from './spec.ts';

export class BaseLayer extends DelegatingEnv implements HarnessLayer {
  private currentTask: TaskInfo;

  constructor(
    env: ActionableEnv,
    private readonly bridge: Bridge,
    private readonly node: BaseNode,
    private readonly taskInfo: TaskInfo,
    readonly path: string,
    private readonly ctx: StackContext,
  ) {
    super(env);
    this.currentTask = taskInfo;
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
  override async reset(options: ResetOptions): Promise<ResetResult> {
    const override = options.taskId !== SPEC_TASK && options.taskId !== this.node.task;
    if (override) {
      const info = await this.bridge.getTask(options.taskId);
      this.currentTask = info ?? { ...this.taskInfo, id: options.taskId };
    } else {
      this.currentTask = this.taskInfo;
    }
    const reset = await this.inner.reset({ ...options, taskId: this.currentTask.id });
    return { ...reset, observation: capObservation(reset.observation) };
  }
  override observe(): Observation {
    return capObservation(this.inner.observe());
  }
  override describeState(): Observation {
    return capObservation(super.describeState());
  }
  override async step(action: Action): Promise<StepResult> {
    // A bridge's observation is copied into every step row and live event: capped here, once.
    const inner = await this.inner.step(action);
    const result = { ...inner, observation: capObservation(inner.observation) };
    this.ctx.trace.executedAction = action;
    this.ctx.trace.rawObservation = result.observation;
    return result;
  }
}
