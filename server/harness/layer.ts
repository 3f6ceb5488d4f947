// The decorator every harness component derives from (PAPERS.md appendix C): an EnvHarness *is*
// an ActionableEnv and holds one; by default it delegates every method; a component overrides
// only what it changes. Layers are named by their node path in the spec (`env`, `env.env`,
// `env.first`, ...), and report what they changed to the StepTrace shared by the stack.
import type {
  Action,
  ActionableEnv,
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
import type { SandboxHost } from './sandbox.ts';
import type { HarnessNode } from './spec.ts';
import type { LayerChange } from './types.ts';

/** What the layers of one stack report about the agent step in progress. */
export class StepTrace {
  changes: LayerChange[] = [];
  executedAction: Action | null = null;
  rawObservation: Observation | null = null;
  blocked: string | undefined;
  leg: number | undefined;

  clear(): void {
    this.changes = [];
    this.executedAction = null;
    this.rawObservation = null;
    this.blocked = undefined;
    this.leg = undefined;
  }
}

export interface StackContext {
  trace: StepTrace;
  sandbox: SandboxHost;
}

export type TextTool = { name: string; arg: string };

/** An ActionableEnv that knows its place in the spec. */
export interface HarnessLayer extends ActionableEnv {
  readonly path: string;
  toNode(): HarnessNode;
  textTool(): TextTool | undefined;
  task(): TaskInfo;
}

/**
 * `reset({ taskId: '' })` means "the task written in the spec"; a non-empty taskId overrides the
 * task of the first leaf (rollouts over several tasks with one harness).
 */
export const SPEC_TASK = '';

export abstract class EnvHarness implements HarnessLayer {
  constructor(
    protected readonly inner: HarnessLayer,
    readonly path: string,
    protected readonly ctx: StackContext,
  ) {}

  abstract toNode(): HarnessNode;

  /** The layer calls go to; a Chain points it at its active leg. */
  protected target(): HarnessLayer {
    return this.inner;
  }

  get envType(): string {
    return this.target().envType;
  }
  listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return this.target().listTasks(filter);
  }
  reset(options: ResetOptions): Promise<ResetResult> {
    return this.target().reset(options);
  }
  step(action: Action): Promise<StepResult> {
    return this.target().step(action);
  }
  observe(): Observation {
    return this.target().observe();
  }
  evaluate(): Promise<Evaluation> {
    return this.target().evaluate();
  }
  getEnvState(): Json {
    return this.target().getEnvState();
  }
  stateSchema(): JsonSchema {
    return this.target().stateSchema();
  }
  tools(): ToolSpec[] {
    return this.target().tools();
  }
  saveState(): Promise<EnvSnapshot> {
    return this.target().saveState();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  textTool(): TextTool | undefined {
    return this.target().textTool();
  }
  task(): TaskInfo {
    return this.target().task();
  }
}

/** One-line rendering of an action for messages: the command of a text tool, else name(args). */
export function describeAction(action: Action): string {
  const values = Object.values(action.args);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return `${action.name}(${JSON.stringify(action.args)})`;
}
