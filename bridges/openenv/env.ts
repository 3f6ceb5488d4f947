// An ActionableEnv over one OpenEnv server: each episode is one WebSocket `/ws` session (reset opens
// it, close ends it). A step sends `{"type":"step","data":<action fields>}` and, pipelined behind
// it, `{"type":"state"}`, so the state view costs no extra round trip. The verifier is the
// environment's own reward and done, by a named rule; snapshots are reset kwargs plus replayed
// actions (the server must be deterministic for a seed).
import { filterTasks, invalidStep, stepResult } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  EnvInfraError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonObject,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepInfo,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import type { SerializedObservation, WSReply } from './protocol.ts';
import { choicesOf, renderObservation } from './render.ts';
import { OpenEnvSession } from './session.ts';

/** How success is decided from the environment's own signals. */
export type SuccessRule = 'final-reward' | 'reward-sum';

export const SUCCESS_RULES: Record<SuccessRule, string> = {
  'final-reward': 'done with a positive final reward',
  'reward-sum': 'done with a positive reward sum',
};

/** What every env of one attached server shares (built once when the bridge attaches). */
export interface OpenEnvServer {
  name: string;
  url: string;
  timeoutMs: number;
  tool: ToolSpec;
  stateSchema: JsonSchema;
  /** Task id → reset kwargs. */
  tasks: Map<string, { info: TaskInfo; kwargs: JsonObject }>;
  /** The observation field shown as the text (per-server option); default: a rendering of all. */
  observationField?: string;
  success: SuccessRule;
}

/** Drops what differs between two runs of the same seed (OpenEnv states carry a fresh uuid4 episode_id). */
function stateView(state: JsonObject): JsonObject {
  const { episode_id: _drop, ...rest } = state;
  return rest;
}

function errorDetail(data: Record<string, unknown>): string {
  const errors = Array.isArray(data.errors) ? data.errors : [];
  const parts = errors.slice(0, 5).map((e) => {
    const err = (e ?? {}) as { loc?: unknown; msg?: unknown };
    const loc = Array.isArray(err.loc) && err.loc.length > 0 ? `${err.loc.join('.')}: ` : '';
    return `${loc}${typeof err.msg === 'string' ? err.msg : JSON.stringify(e)}`;
  });
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

export class OpenEnvEnv implements ActionableEnv {
  private session: OpenEnvSession | undefined;
  private resetOptions: ResetOptions | undefined;
  private actions: Action[] = [];
  private lastObservation: Observation = { text: 'No episode yet: call reset with a task.' };
  private state: JsonObject | null = null;
  private rewards: number[] = [];
  /** Steps a Stage's set-up had made when it called afterSetup: not the agent's, not counted. */
  private setupAt = 0;
  private done = false;
  private closed = false;

  constructor(private readonly server: OpenEnvServer) {}

  get envType(): string {
    return this.server.name;
  }

  private get where(): string {
    return `openenv env '${this.server.name}' (${this.server.url})`;
  }

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return filterTasks(
      [...this.server.tasks.values()].map((t) => t.info),
      filter,
    );
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = this.server.tasks.get(options.taskId);
    if (!task) throw new UnknownTaskError(this.server.name, options.taskId);
    // One session per episode: the previous one ends here.
    this.session?.close();
    this.session = undefined;
    const session = await OpenEnvSession.open(
      this.server.url,
      this.server.name,
      Math.max(this.server.timeoutMs, 30_000),
    );
    this.session = session;
    const data = { ...task.kwargs, ...(options.options ?? {}), seed: options.seed };
    const [reply, state] = await this.exchange(session, { type: 'reset', data }, 'reset');
    if (reply.type !== 'observation') throw this.unexpected(reply, 'reset');
    this.resetOptions = structuredClone(options);
    this.actions = [];
    this.rewards = [];
    this.setupAt = 0;
    this.done = reply.data.done;
    this.state = state;
    this.lastObservation = this.observationOf(reply.data);
    return { observation: this.lastObservation, info: this.infoOf(reply.data) };
  }

  /** A message and `{"type":"state"}` pipelined behind it: two replies, one round trip. */
  private async exchange(
    session: OpenEnvSession,
    message: Record<string, unknown>,
    what: string,
  ): Promise<[WSReply, JsonObject | null]> {
    const first = session.request(message, what);
    const second = session.request({ type: 'state' }, 'state');
    // Both settle before either is read, so a failed first reply leaves no unhandled rejection.
    const [a, b] = await Promise.allSettled([first, second]);
    if (a.status === 'rejected') throw a.reason;
    if (b.status === 'rejected') throw b.reason;
    const stateReply = b.value;
    if (stateReply.type !== 'state') throw this.unexpected(stateReply, 'state');
    return [a.value, stateView(stateReply.data)];
  }

  private unexpected(reply: WSReply, what: string): EnvInfraError {
    if (reply.type === 'error') {
      return new EnvInfraError(
        `${this.where}: the server answered ${what} with ${reply.data.code || 'an error'}: ${reply.data.message}${errorDetail(reply.data)}`,
      );
    }
    return new EnvInfraError(
      `${this.where}: expected an observation for ${what}, got '${reply.type}'`,
    );
  }

  private observationOf(s: SerializedObservation): Observation {
    return { text: renderObservation(s.observation, this.server.observationField) };
  }

  /** The raw reply is kept in info (the viewer shows it); list fields become admissible commands. */
  private infoOf(s: SerializedObservation): StepInfo {
    const raw: JsonObject = {
      observation: s.observation,
      reward: typeof s.reward === 'boolean' ? Number(s.reward) : (s.reward ?? null),
      done: s.done,
    };
    if (s.metadata) raw.metadata = s.metadata;
    const choices = choicesOf(s.observation);
    return { openenv: raw, ...(choices ? { admissibleCommands: choices } : {}) };
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    const session = this.session;
    if (!session) {
      this.lastObservation = { text: 'No episode yet: call reset with a task first.' };
      return invalidStep(this.lastObservation);
    }
    // Every action is kept for snapshots, those refused here too, so a replay ends where the run did.
    this.actions.push(structuredClone(action));
    if (action.name !== this.server.tool.name) {
      this.lastObservation = {
        text: `Invalid action: unknown tool '${action.name}'. This environment has one tool, '${this.server.tool.name}', whose arguments are the action's fields.`,
      };
      return invalidStep(this.lastObservation);
    }
    const [reply, state] = await this.exchange(
      session,
      { type: 'step', data: action.args },
      'step',
    );
    if (reply.type === 'error' && reply.data.code === 'VALIDATION_ERROR') {
      // The server refused the action's shape: the agent's mistake, said in the server's words.
      this.lastObservation = {
        text: `Invalid action: ${reply.data.message || 'the server rejected it'}${errorDetail(reply.data)}`,
      };
      this.state = state;
      return invalidStep(this.lastObservation, {
        info: { openenv: { error: reply.data as Json } },
      });
    }
    if (reply.type !== 'observation') throw this.unexpected(reply, 'step');
    const reward =
      typeof reply.data.reward === 'boolean' ? Number(reply.data.reward) : (reply.data.reward ?? 0);
    this.rewards.push(reward);
    this.done = reply.data.done;
    this.state = state;
    this.lastObservation = this.observationOf(reply.data);
    return stepResult(this.lastObservation, {
      reward,
      terminated: reply.data.done,
      info: this.infoOf(reply.data),
    });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /** The environment's own verdict: its done and reward, by the server's rule (named in `rule`). */
  async evaluate(): Promise<Evaluation> {
    const rewards = this.rewards.slice(this.setupAt);
    const sum = rewards.reduce((a, b) => a + b, 0);
    const final = rewards.at(-1) ?? 0;
    const rule = this.server.success;
    const score = rule === 'final-reward' ? final : sum;
    return {
      success: this.done && score > 0,
      score,
      metrics: {
        done: this.done ? 1 : 0,
        final_reward: final,
        reward_sum: sum,
        env_steps: rewards.length,
      },
      rule: `${rule}: ${SUCCESS_RULES[rule]}`,
    };
  }

  /**
   * After a Stage's set-up: its steps and their rewards are not the agent's, so the verdict's sums
   * and step count start here (the server's own counters are its business: OpenEnv has no call
   * for them).
   */
  afterSetup(): void {
    this.setupAt = this.rewards.length;
  }

  getEnvState(): Json {
    return structuredClone(this.state);
  }

  stateSchema(): JsonSchema {
    return this.server.stateSchema;
  }

  tools(): ToolSpec[] {
    return [this.server.tool];
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.resetOptions) throw new EnvInfraError(`${this.where}: nothing to save before reset`);
    return {
      envType: this.envType,
      reset: structuredClone(this.resetOptions),
      actions: structuredClone(this.actions),
      ...(this.setupAt > 0 ? { state: { setupAt: this.setupAt } } : {}),
    };
  }

  /** Replays a snapshot on a fresh session (the server must be deterministic for a seed). */
  async restore(snapshot: EnvSnapshot): Promise<void> {
    if (snapshot.envType !== this.envType)
      throw new EnvInfraError(`${this.where}: cannot restore a '${snapshot.envType}' snapshot`);
    await this.reset(snapshot.reset);
    for (const action of snapshot.actions ?? []) await this.step(action);
    const state = snapshot.state;
    if (
      state &&
      typeof state === 'object' &&
      !Array.isArray(state) &&
      typeof state.setupAt === 'number'
    )
      this.setupAt = state.setupAt;
  }

  /** Idempotent: sends `{"type":"close"}` and ends the session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(this.envType);
  }
}
