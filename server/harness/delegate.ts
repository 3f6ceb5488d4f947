// The one decorator of the stack (PAPERS.md appendix C): an ActionableEnv that holds one and
// delegates every method to it by default. The bridge leaf (base.ts), the Stage / Contract / Chain
// layers (layer.ts `EnvHarness`) and the Harness itself (harness.ts) all derive from it and
// override only what they change. The optional capabilities of the contract (`afterSetup`,
// `describeState`, `getEnvStateAt`) are forwarded the same way, so a Stage reaches the bridge
// through any layers.
import { jsonAt } from '../../bridges/core/helpers.ts';
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
  Screenshot,
  StepResult,
  TaskFilter,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';

export class DelegatingEnv<Inner extends ActionableEnv = ActionableEnv> implements ActionableEnv {
  constructor(protected readonly inner: Inner) {}

  /** Where calls go; a Chain points it at its active leg. `close()` always goes to `inner`. */
  protected target(): Inner {
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
  /** Optional capability (types.ts): the bridge's narrow read where it has one, else the view's. */
  getEnvStateAt(path: readonly string[]): Json | undefined {
    const env = this.target();
    return env.getEnvStateAt ? env.getEnvStateAt(path) : jsonAt(env.getEnvState(), path);
  }
  /** Whether getEnvStateAt reads narrowly (the bridge's own read, not its whole view). */
  hasNarrowStateRead(): boolean {
    const env = this.target();
    return env instanceof DelegatingEnv
      ? env.hasNarrowStateRead()
      : typeof env.getEnvStateAt === 'function';
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
  /** Optional capability (types.ts): forwarded to the env below when it has it. */
  afterSetup(): void | Promise<void> {
    return this.target().afterSetup?.();
  }
  /** Optional capability (types.ts): the env's own description, else its last observation. */
  describeState(): Observation {
    const env = this.target();
    return env.describeState ? env.describeState() : env.observe();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  /** The oracle capability of whatever is below (undefined where the bridge has none). */
  solve(): Promise<Action[] | undefined> {
    const target = this.target();
    return target.solve ? target.solve() : Promise.resolve(undefined);
  }
  /** A picture of what the env below shows now (undefined where the bridge has none). */
  screenshot(): Promise<Screenshot | undefined> {
    const target = this.target();
    return target.screenshot ? target.screenshot() : Promise.resolve(undefined);
  }
}
