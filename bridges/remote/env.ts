// An ActionableEnv whose simulator lives behind an HTTP server (README.md). The sync parts of the
// contract (observe, getEnvState) are served from the last reply; snapshots are reset parameters
// plus replayed actions (the paper's persistence for heavy runtimes), so any deterministic server
// can be saved and restored without implementing snapshots itself.
import { filterTasks, invalidStep } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  EnvInfraError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { type RemoteClient, RemoteHttpError } from './client.ts';
import {
  AfterSetupReplyZ,
  CloseReplyZ,
  EvaluateReplyZ,
  ResetReplyZ,
  type SchemaReply,
  StateReplyZ,
  StepReplyZ,
} from './protocol.ts';

/** A best-effort close must not hold up the caller when the server is gone. */
const CLOSE_TIMEOUT_MS = 2_000;

export class RemoteEnv implements ActionableEnv {
  private episodeId: string | undefined;
  private resetOptions: ResetOptions | undefined;
  private actions: Action[] = [];
  private lastObservation: Observation = { text: 'No episode yet: call reset with a task.' };
  private state: Json = null;
  private closed = false;
  /** How many of `actions` a Stage's set-up had replayed when it called afterSetup (snapshots). */
  private setupAt: number | undefined;
  /** The server answered 404 to /after_setup once: it has no counters to reset. */
  private noAfterSetup = false;

  constructor(
    readonly envType: string,
    private readonly client: RemoteClient,
    private readonly schema: SchemaReply,
    private readonly taskIds: ReadonlySet<string>,
  ) {}

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return filterTasks(this.schema.tasks as TaskInfo[], filter);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    if (!this.taskIds.has(options.taskId)) throw new UnknownTaskError(this.envType, options.taskId);
    let reply: Awaited<ReturnType<typeof this.resetRequest>>;
    try {
      reply = await this.resetRequest(options);
    } catch (error) {
      if (error instanceof RemoteHttpError && error.status === 404)
        throw new UnknownTaskError(this.envType, options.taskId);
      throw error;
    }
    this.episodeId = reply.episode_id;
    this.resetOptions = structuredClone(options);
    this.actions = [];
    this.setupAt = undefined;
    this.lastObservation = reply.observation as Observation;
    this.state = reply.state !== undefined ? (reply.state as Json) : await this.fetchState();
    return { observation: this.lastObservation, info: reply.info as ResetResult['info'] };
  }

  private resetRequest(options: ResetOptions) {
    return this.client.request(
      'POST',
      '/reset',
      ResetReplyZ,
      {
        task_id: options.taskId,
        seed: options.seed,
        options: options.options ?? {},
        // Reusing the episode keeps one server-side session per env object.
        ...(this.episodeId ? { episode_id: this.episodeId } : {}),
      },
      Math.max(this.client.timeoutMs, 30_000),
    );
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    const episodeId = this.episodeId;
    if (!episodeId) {
      this.lastObservation = { text: 'No episode yet: call reset with a task first.' };
      return invalidStep(this.lastObservation);
    }
    const reply = await this.client.request('POST', '/step', StepReplyZ, {
      episode_id: episodeId,
      action,
    });
    this.actions.push(structuredClone(action));
    this.lastObservation = reply.observation as Observation;
    this.state = reply.state !== undefined ? (reply.state as Json) : await this.fetchState();
    return {
      observation: this.lastObservation,
      reward: reply.reward,
      terminated: reply.terminated,
      truncated: reply.truncated,
      info: reply.info as StepResult['info'],
    };
  }

  private async fetchState(): Promise<Json> {
    const id = this.episodeId;
    if (!id) return null;
    const reply = await this.client.request(
      'GET',
      `/state?episode_id=${encodeURIComponent(id)}`,
      StateReplyZ,
    );
    return reply.state as Json;
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /**
   * Stage's callback after its set-up: the server resets its counters (`POST /after_setup`, an
   * optional route of the protocol). A server without the route (404) keeps counting set-up steps
   * in its metrics; the bridge then stops asking.
   */
  async afterSetup(): Promise<void> {
    const episodeId = this.episodeId;
    if (!episodeId) return;
    this.setupAt = this.actions.length;
    if (this.noAfterSetup) return;
    try {
      await this.client.request('POST', '/after_setup', AfterSetupReplyZ, {
        episode_id: episodeId,
      });
    } catch (error) {
      if (error instanceof RemoteHttpError && error.status === 404) this.noAfterSetup = true;
      else throw error;
    }
  }

  async evaluate(): Promise<Evaluation> {
    if (!this.episodeId) return { success: false, score: 0, metrics: {} };
    this.assertOpen();
    return this.client.request('POST', '/evaluate', EvaluateReplyZ, { episode_id: this.episodeId });
  }

  getEnvState(): Json {
    return structuredClone(this.state);
  }

  stateSchema(): JsonSchema {
    return this.schema.stateSchema as JsonSchema;
  }

  tools(): ToolSpec[] {
    return this.schema.tools as ToolSpec[];
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.resetOptions)
      throw new EnvInfraError(`${this.envType}: nothing to save before reset`);
    return {
      envType: this.envType,
      reset: structuredClone(this.resetOptions),
      actions: structuredClone(this.actions),
      ...(this.setupAt !== undefined ? { state: { setupAt: this.setupAt } } : {}),
    };
  }

  /** Rebuilds a snapshot by replaying it on a fresh remote episode (the server must be deterministic). */
  async restore(snapshot: EnvSnapshot): Promise<void> {
    if (snapshot.envType !== this.envType)
      throw new EnvInfraError(`${this.envType}: cannot restore a '${snapshot.envType}' snapshot`);
    await this.reset(snapshot.reset);
    const state = snapshot.state;
    const setupAt =
      state &&
      typeof state === 'object' &&
      !Array.isArray(state) &&
      typeof state.setupAt === 'number'
        ? state.setupAt
        : undefined;
    const actions = snapshot.actions ?? [];
    for (const [i, action] of actions.entries()) {
      if (i === setupAt) await this.afterSetup();
      await this.step(action);
    }
    if (setupAt !== undefined && setupAt >= actions.length) await this.afterSetup();
  }

  /** Idempotent; the server-side episode is released even when the caller forgets to (best effort). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const id = this.episodeId;
    this.episodeId = undefined;
    if (!id) return;
    try {
      await this.client.request(
        'POST',
        '/close',
        CloseReplyZ,
        { episode_id: id },
        CLOSE_TIMEOUT_MS,
      );
    } catch {
      // The server is down or slow: its episode dies with it; close must not fail the caller.
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(this.envType);
  }
}
