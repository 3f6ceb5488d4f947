// What the layers of a stack share: the component base class (an EnvHarness is the delegating
// decorator of delegate.ts that knows its place in the spec), the StepTrace every layer reports its
// changes to, and the stack context. Layers are named by their node path in the spec (`env`,
// `env.env`, `env.first`, ...).
import type {
  Action,
  ActionableEnv,
  Json,
  Observation,
  TaskInfo,
} from '../../bridges/core/types.ts';
import { DelegatingEnv } from './delegate.ts';
import type { SandboxHost } from './sandbox/index.ts';
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
  /** Every layer forwards the optional capabilities (delegate.ts), so they are always there. */
  afterSetup(): void | Promise<void>;
  describeState(): Observation;
  getEnvStateAt(path: readonly string[]): Json | undefined;
  /** Whether getEnvStateAt reads narrowly (the bridge's own read, not its whole view). */
  hasNarrowStateRead(): boolean;
  toNode(): HarnessNode;
  textTool(): TextTool | undefined;
  task(): TaskInfo;
}

/**
 * `reset({ taskId: '' })` means "the task written in the spec"; a non-empty taskId overrides the
 * task of the first leaf (rollouts over several tasks with one harness).
 */
export const SPEC_TASK = '';

export abstract class EnvHarness extends DelegatingEnv<HarnessLayer> implements HarnessLayer {
  constructor(
    inner: HarnessLayer,
    readonly path: string,
    protected readonly ctx: StackContext,
  ) {
    super(inner);
  }

  abstract toNode(): HarnessNode;

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
