// The ActionableEnv contract (PAPERS.md appendix C, DESIGN.md "Core contract").
// Every bridge implements it; every harness layer is one. Nothing here knows the server or the UI.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A tool call. Text environments expose one tool (household: `act {command}`). */
export interface Action {
  name: string;
  args: JsonObject;
}

export interface Observation {
  text: string;
  data?: Json;
}

/**
 * Per-step extras. Known keys:
 * - `invalid`: the action was not understood or its preconditions failed (counts as an invalid action)
 * - `admissibleCommands`: text bridges list what may be typed next (ALFWorld's admissible commands)
 * - `harness`: filled by harness layers (see server/harness), never by bridges
 */
export type StepInfo = JsonObject & {
  invalid?: boolean;
  admissibleCommands?: string[];
};

/** The Gymnasium 5-tuple. */
export interface StepResult {
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
}

/** The benchmark's own verifier verdict. */
export interface Evaluation {
  success: boolean;
  score: number;
  metrics: Record<string, number>;
  /**
   * Which rule decided `success`, when the verifier is a rule over the environment's own signals
   * (an OpenEnv server's reward and done: "done with a positive final reward"). Absent for bridges
   * whose verifier is the benchmark's own goal check.
   */
  rule?: string;
}

export interface TaskInfo {
  id: string;
  /** Task family, e.g. household `pick_clean_then_place_in_recep`, toy24 `easy`. */
  type: string;
  goal: string;
  split: string;
  /** 0 (easy) .. 1 (hard) when the bridge knows it. */
  difficulty?: number;
  meta?: JsonObject;
}

/** JSON Schema (draft 2020-12 subset) as plain JSON. */
export type JsonSchema = JsonObject;

/** A tool as an LLM sees it (OpenAI function-calling shape: name, description, JSON-Schema parameters). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ResetOptions {
  taskId: string;
  seed: number;
  options?: JsonObject;
}

export interface ResetResult {
  observation: Observation;
  info: StepInfo;
}

/** A serialisable snapshot: either a full state or reset parameters plus replayed actions. */
export interface EnvSnapshot {
  envType: string;
  reset: ResetOptions;
  actions?: Action[];
  state?: Json;
}

export interface ActionableEnv {
  readonly envType: string;
  listTasks(filter?: TaskFilter): Promise<TaskInfo[]>;
  reset(options: ResetOptions): Promise<ResetResult>;
  /** Never throws for a bad action: returns an observation that says what was wrong, `info.invalid = true`. */
  step(action: Action): Promise<StepResult>;
  /** The last observation the agent was shown. */
  observe(): Observation;
  /** The benchmark's verifier on the current state. */
  evaluate(): Promise<Evaluation>;
  /** A safe, read-only, plain-JSON view of the state (no handles). Hooks read only this. */
  getEnvState(): Json;
  /**
   * Optional capability: the value at a key path of getEnvState() (`['agent', 'holding']`), read
   * as `jsonAt` reads it, without building the rest of the view. For a bridge whose full view is
   * dear; callers without it use `jsonAt(getEnvState(), path)`.
   */
  getEnvStateAt?(path: readonly string[]): Json | undefined;
  /** JSON Schema of getEnvState(), generated from zod. */
  stateSchema(): JsonSchema;
  tools(): ToolSpec[];
  saveState(): Promise<EnvSnapshot>;
  /** Idempotent. */
  close(): Promise<void>;

  // Optional capabilities: harness layers forward them (server/harness/delegate.ts); callers use
  // them when present.

  /**
   * Called by Stage right after it replayed its set-up actions (the paper's callback, appendix
   * C.3): the env resets its step counters and per-episode tallies, so set-up steps never count in
   * `evaluate().metrics` (household `steps`, `invalidActions`). The state itself stays as set up.
   * An env whose counters live elsewhere (a remote server) may return a promise; Stage awaits it.
   */
  afterSetup?(): void | Promise<void>;
  /**
   * The env's own description of its current state, as a first observation (Stage `intro:
   * "state"`): household writes ALFWorld's intro with where the agent stands and what it holds.
   * Without it, callers use `observe()`.
   */
  describeState?(): Observation;
  /**
   * Optional capability: a winning action sequence (an oracle plan) from the environment's CURRENT
   * state, `[]` when the task is already won, or undefined when the bridge finds none from here.
   * It reads privileged state, so it is for solvability lint and the verifier audit, never for
   * agents. Every harness layer forwards it to the layer below (a Chain to its active leg), so
   * asked after a Stage's set-up it re-plans from the staged start state.
   */
  solve?(): Promise<Action[] | undefined>;
  /**
   * Optional capability: a picture of what the environment shows now (browser bridges: the current
   * tab), base64-encoded. The trajectory viewer rebuilds a step's screenshot by replay with it.
   */
  screenshot?(): Promise<Screenshot | undefined>;
}

export interface Screenshot {
  mimeType: string;
  /** base64 */
  data: string;
}

export interface TaskFilter {
  split?: string;
  type?: string;
  text?: string;
}

/** A benchmark bridge: its description, task list, and a factory for environments. */
export interface Bridge {
  readonly name: string;
  readonly description: string;
  readonly splits: string[];
  /** The tool an agent types plain text into (e.g. household `act`), when there is one. */
  readonly textTool?: { name: string; arg: string };
  listTasks(filter?: TaskFilter): Promise<TaskInfo[]>;
  getTask(taskId: string): Promise<TaskInfo | undefined>;
  tools(): ToolSpec[];
  stateSchema(): JsonSchema;
  create(): Promise<ActionableEnv>;
  /** Rebuild an environment from saveState(); it continues exactly where the snapshot was taken. */
  fromState(snapshot: EnvSnapshot): Promise<ActionableEnv>;

  // Capabilities: optional; generic code (engine, EnvRigger, skills, studio) asks the bridge through
  // these instead of knowing a benchmark's id conventions. Call them through the defaults in
  // capabilities.ts (`pinTask(bridge, …)`, `displayTaskId(bridge, …)`).

  /**
   * Pins a task to one start state: returns a task id whose reset gives the same start state under
   * every episode seed (`variant` picks which one; household: `<id>@scene<variant>`, the scene
   * seed), so a Stage written against that state replays under every seed. An id that is already
   * pinned comes back unchanged. A bridge without it: tasks are used as they are (for toy24, say,
   * a task is one start state anyway).
   */
  pinTask?(taskId: string, variant: number): string;
  /**
   * A task id as people read it: a pinned (or otherwise decorated) id shown as the benchmark task
   * it came from (household: without `@scene<N>`). A bridge without it: the id itself.
   */
  displayTaskId?(taskId: string): string;
  /**
   * Whether the bridge can run on this machine (a runtime it drives is installed), and if not why
   * and the one command that fixes it. A bridge without it: always available. Call it through
   * `availabilityOf(bridge)` (capabilities.ts).
   */
  availability?(): BridgeAvailability;
  /**
   * Where an attached environment server lives and what it speaks (OpenEnv: its action and
   * observation JSON Schemas as the server gave them), for `harness bridges --json` and the task
   * page. Absent for the built-in bridges.
   */
  readonly origin?: BridgeOrigin;
  /**
   * The contract suite's per-check time limit for this bridge (`harness check`), when its runtime
   * is heavier than the default 30 s allows on a loaded machine (a browser per episode).
   */
  readonly contractTimeoutMs?: number;
}

export interface BridgeOrigin {
  protocol: 'openenv' | 'remote';
  url: string;
  actionSchema?: JsonSchema;
  observationSchema?: JsonSchema;
}

export type BridgeAvailability =
  | { available: true }
  | { available: false; reason: string; fix: string };

/**
 * Where bridges come from, by name. The harness engine receives one (it imports no registry): the
 * server passes the configured registry (server/bridges.ts `configuredBridges()`), tests pass
 * fakes (`resolverOf([...])` in capabilities.ts).
 */
export interface BridgeResolver {
  get(name: string): Promise<Bridge | undefined>;
  /** The names it knows, for "unknown bridge" messages. */
  names(): string[];
}

export { EnvClosedError, EnvInfraError, UnknownTaskError } from './errors.ts';
