// `harness serve`: any harness as an OpenEnv environment server (meta-pytorch/OpenEnv
// http_server.py). GET /health, /schema, /metadata, /state; POST /reset and /step, stateless as in
// OpenEnv's HTTP mode; and the WebSocket /ws, one harnessed environment per connection, with
// OpenEnv's message types and WSErrorCode values. Rewards and done come from the harness stack
// (Contract hooks apply, Stage set-up is not counted, Chain legs are masked); the verifier's verdict
// rides on the last observation's metadata. README.md in this folder has the details.
import '#server-only';
import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocket } from 'ws';
import type { Evaluation, Json, JsonObject } from '../../bridges/core/types.ts';
import {
  ResetDataZ,
  type ValidationIssue,
  type WSErrorCode,
  WSIncomingZ,
} from '../../bridges/openenv/protocol.ts';
import { DEFAULT_MAX_STEPS } from '../../contracts/launch.ts';
import { firstBase, type HarnessSpec } from '../../contracts/spec.ts';
import { ConflictError, InvalidInputError, kindOf } from '../errors.ts';
import type { StepRecord } from '../harness/types.ts';
import { wsPackage } from '../lazy-packages.ts';
import type { SessionEngine } from './engine.ts';
import type { EpisodeStart } from './episodes.ts';
import type { EpisodeEnd, ServeRecorder } from './record.ts';
import {
  actionSchema,
  evaluationMetadata,
  OBSERVATION_SCHEMA,
  parseAction,
  type ServedShape,
  serializeObservation,
  stateSchema,
} from './wire.ts';

export interface ServeOptions {
  spec: HarnessSpec;
  /** What is served, for /metadata and logs (e.g. `household:eval_seen-001`, `harness x@3`). */
  label: string;
  /** The spec names a bridge, not one task: reset's `task_id` picks the task. */
  bridgeMode?: boolean;
  engine: SessionEngine;
  host?: string;
  /** 0: a free port. */
  port?: number;
  /** WebSocket sessions at once; more are refused with CAPACITY_REACHED. */
  maxSessions?: number;
  /** A session without a message this long is closed. */
  idleTimeoutMs?: number;
  /** Agent steps before an episode is cut off (done, truncated), as `harness rollout --max-steps`. */
  maxSteps?: number;
  /** Stores every served episode as a run (--record). */
  recorder?: ServeRecorder;
  /** Told when a session opens or closes (the studio's live count). */
  onSessions?: (active: number) => void;
}

export interface ServedStats {
  sessions: number;
  maxSessions: number;
  episodes: number;
  steps: number;
}

export interface OpenEnvServerHandle {
  url: string;
  port: number;
  host: string;
  shape: ServedShape;
  stats(): ServedStats;
  close(): Promise<void>;
}

class WsError extends Error {
  constructor(
    readonly code: WSErrorCode,
    message: string,
    readonly extra: JsonObject = {},
  ) {
    super(message);
  }
}

interface Episode {
  episodeId: string;
  seed: number;
  taskId: string;
  startedAt: number;
  agentSteps: number;
  done: boolean;
  /** Why it ended, once it did. */
  end?: 'terminated' | 'step_budget_exhausted' | 'error';
  error?: { kind: 'infra' | 'harness' | 'policy'; name: string; message: string };
  evaluation?: Evaluation;
  trajectory: StepRecord[];
  envReward: number;
  invalid: number;
  recording?: Promise<{ runId: string; episodeId: string; attempt: number } | null>;
}

function errorFrame(code: WSErrorCode, message: string, extra: JsonObject = {}): string {
  return JSON.stringify({ type: 'error', data: { message, code, ...extra } });
}

function zodIssues(error: { issues: { code: string; path: PropertyKey[]; message: string }[] }) {
  return error.issues.map((i) => ({
    type: i.code,
    loc: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
    msg: i.message,
  }));
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function startOpenEnvServer(o: ServeOptions): Promise<OpenEnvServerHandle> {
  const engine = o.engine;
  const maxSessions = o.maxSessions ?? 64;
  const idleTimeoutMs = o.idleTimeoutMs ?? 600_000;
  const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
  const specTask = firstBase(o.spec.env).task;
  const totals = { episodes: 0, steps: 0 };

  // One probe episode: the spec runs (bridges resolve, hooks compile, Stage set-up replays), and
  // its tools, text tool and state schema make /schema.
  const probeId = `probe-${randomUUID()}`;
  let probe: EpisodeStart;
  try {
    probe = await engine.reset({ id: probeId, spec: o.spec, seed: 0 });
  } finally {
    await engine.close(probeId);
  }
  const shape: ServedShape = {
    tools: probe.tools,
    textTool: probe.textTool,
    stateSchema: probe.stateSchema,
  };
  const schemas = {
    action: actionSchema(shape),
    observation: OBSERVATION_SCHEMA,
    state: stateSchema(shape),
  };
  const metadata = {
    name: `EnvHarness: ${o.label}`,
    description:
      `A harnessed environment served by EnvHarness Studio (${o.label}). ` +
      (shape.textTool
        ? 'Send {"message": "<command>"} or {"tool": name, "args": {…}}.'
        : 'Send {"tool": name, "args": {…}}.') +
      ' reset takes seed (the episode seed of `harness rollout`)' +
      (o.bridgeMode ? ' and task_id.' : '.'),
    readme_content: null,
    version: '1',
    author: null,
    documentation_url: null,
  };

  function resetArgs(data: Record<string, unknown>): {
    seed: number;
    taskId?: string;
    episodeId: string;
  } {
    const parsed = ResetDataZ.safeParse(data);
    if (!parsed.success)
      throw new WsError('VALIDATION_ERROR', 'Invalid message', { errors: zodIssues(parsed.error) });
    const seed = parsed.data.seed ?? randomInt(0, 2 ** 31 - 1);
    const taskId = parsed.data.task_id ?? undefined;
    if (taskId !== undefined && !o.bridgeMode && taskId !== specTask) {
      throw new WsError(
        'VALIDATION_ERROR',
        `This server serves one task (${specTask}); task_id is accepted only when it serves a bridge (harness serve --spec <bridge>)`,
        {
          errors: [
            { type: 'value_error', loc: ['task_id'], msg: 'not served here', input: taskId },
          ],
        },
      );
    }
    return {
      seed,
      episodeId: parsed.data.episode_id ?? randomUUID(),
      ...(taskId !== undefined ? { taskId } : {}),
    };
  }

  /** Records a finished (or cut) episode once, when recording. */
  async function finish(sessionId: string, ep: Episode, cut: 'gave_up' | undefined): Promise<void> {
    if (!o.recorder || !ep.recording) return;
    const claimed = await ep.recording.catch(() => null);
    ep.recording = undefined;
    if (!claimed) return;
    let evaluation = ep.evaluation;
    if (!evaluation && !ep.error)
      evaluation = await engine.evaluate(sessionId).catch(() => undefined);
    const end: EpisodeEnd = {
      ...claimed,
      taskId: ep.taskId,
      seed: ep.seed,
      trajectory: ep.trajectory,
      envReward: ep.envReward,
      invalidActions: ep.invalid,
      durationMs: performance.now() - ep.startedAt,
      textTool: shape.textTool,
      ...(ep.error
        ? { error: ep.error }
        : evaluation
          ? {
              evaluation,
              stop: cut ?? (ep.end === 'error' ? undefined : ep.end) ?? 'gave_up',
            }
          : {
              error: {
                kind: 'infra' as const,
                name: 'EnvInfraError',
                message: 'the environment was lost before the episode could be judged',
              },
            }),
    };
    await o.recorder.end(end).catch((e: unknown) => console.error('serve: recording failed:', e));
  }

  class Session {
    readonly id = randomUUID();
    lastActivity = Date.now();
    episode: Episode | undefined;
    private chain: Promise<void> = Promise.resolve();
    closed = false;

    constructor(readonly ws: WebSocket) {}

    /** Messages are handled one at a time, in order (each reply before the next message). */
    enqueue(raw: string): void {
      this.lastActivity = Date.now();
      this.chain = this.chain.then(() => this.handle(raw)).catch(() => undefined);
    }

    private send(text: string): void {
      if (!this.closed) this.ws.send(text);
    }

    private async handle(raw: string): Promise<void> {
      if (this.closed) return;
      let msg: unknown;
      try {
        msg = JSON.parse(raw);
      } catch (e) {
        this.send(errorFrame('INVALID_JSON', `Invalid JSON: ${errorText(e)}`));
        return;
      }
      const type =
        typeof msg === 'object' && msg !== null && 'type' in msg
          ? (msg as { type: unknown }).type
          : '';
      if (!['reset', 'step', 'state', 'close'].includes(type as string)) {
        this.send(errorFrame('UNKNOWN_TYPE', `Unknown message type: ${String(type)}`));
        return;
      }
      const parsed = WSIncomingZ.safeParse(msg);
      if (!parsed.success) {
        this.send(
          errorFrame('VALIDATION_ERROR', 'Invalid message', { errors: zodIssues(parsed.error) }),
        );
        return;
      }
      const m = parsed.data;
      try {
        if (m.type === 'reset') this.send(await this.reset(m.data));
        else if (m.type === 'step') this.send(await this.step(m.data));
        else if (m.type === 'state') this.send(await this.state());
        else this.ws.close(1000);
      } catch (e) {
        if (e instanceof WsError) this.send(errorFrame(e.code, e.message, e.extra));
        else this.send(errorFrame('EXECUTION_ERROR', errorText(e)));
      } finally {
        this.lastActivity = Date.now();
      }
    }

    private async reset(data: Record<string, unknown>): Promise<string> {
      const args = resetArgs(data);
      const previous = this.episode;
      this.episode = undefined;
      if (previous && !previous.done) await finish(this.id, previous, 'gave_up');
      const start = await engine.reset({
        id: this.id,
        spec: o.spec,
        seed: args.seed,
        ...(args.taskId ? { taskId: args.taskId } : {}),
      });
      const ep: Episode = {
        episodeId: args.episodeId,
        seed: args.seed,
        taskId: start.task.id,
        startedAt: performance.now(),
        agentSteps: 0,
        done: false,
        trajectory: [],
        envReward: 0,
        invalid: 0,
      };
      if (o.recorder) ep.recording = o.recorder.begin(start.task.id, args.seed);
      this.episode = ep;
      totals.episodes += 1;
      return JSON.stringify({
        type: 'observation',
        data: serializeObservation({
          observation: start.observation,
          info: start.info,
          reward: null,
          done: false,
          metadata: { episode_id: ep.episodeId, seed: ep.seed, task_id: ep.taskId, step: 0 },
        }),
      });
    }

    private async step(data: Record<string, unknown>): Promise<string> {
      const ep = this.episode;
      if (!ep) throw new WsError('EXECUTION_ERROR', 'No episode yet: send a reset first');
      if (ep.done)
        throw new WsError('EXECUTION_ERROR', 'The episode is over: send a reset to start another');
      const parsed = parseAction(data, shape);
      if (!parsed.ok)
        throw new WsError('VALIDATION_ERROR', 'Invalid message', {
          errors: parsed.errors as unknown as Json,
        });
      let outcome: Awaited<ReturnType<SessionEngine['step']>>;
      try {
        outcome = await engine.step(this.id, parsed.action);
      } catch (e) {
        // A hook that throws, a worker stopped by the watchdog, an environment server gone: the
        // episode ends as an error (recorded apart, never scored); the session stays open for a reset.
        const kind = kindOf(e);
        ep.done = true;
        ep.end = 'error';
        ep.error = {
          kind: kind === 'infra' || kind === 'harness' ? kind : 'harness',
          name: e instanceof Error ? e.name : 'Error',
          message: errorText(e),
        };
        await finish(this.id, ep, undefined);
        throw new WsError(
          'EXECUTION_ERROR',
          `The episode ended with a ${ep.error.kind} error: ${ep.error.message}`,
        );
      }
      const record = { ...outcome.record, index: ep.agentSteps };
      ep.agentSteps = outcome.agentSteps;
      ep.envReward += record.reward;
      if (record.invalid) ep.invalid += 1;
      if (o.recorder) ep.trajectory.push(record);
      totals.steps += 1;
      const cutOff = !outcome.ended && ep.agentSteps >= maxSteps;
      const done = outcome.ended || cutOff;
      const meta: JsonObject = {
        episode_id: ep.episodeId,
        seed: ep.seed,
        task_id: ep.taskId,
        step: ep.agentSteps,
        invalid: record.invalid,
      };
      if (record.blocked !== undefined) meta.blocked = record.blocked;
      if (record.truncated || cutOff) meta.truncated = true;
      if (done) {
        ep.done = true;
        ep.end = record.terminated ? 'terminated' : 'step_budget_exhausted';
        ep.evaluation = await engine.evaluate(this.id);
        meta.evaluation = evaluationMetadata(ep.evaluation);
        await finish(this.id, ep, undefined);
      }
      return JSON.stringify({
        type: 'observation',
        data: serializeObservation({
          observation: record.observation,
          info: record.info,
          reward: record.reward,
          done,
          metadata: meta,
        }),
      });
    }

    private async state(): Promise<string> {
      const ep = this.episode;
      if (!ep) return JSON.stringify({ type: 'state', data: { episode_id: null, step_count: 0 } });
      return JSON.stringify({
        type: 'state',
        data: {
          episode_id: ep.episodeId,
          step_count: ep.agentSteps,
          task_id: ep.taskId,
          seed: ep.seed,
          state: ep.error ? null : await engine.state(this.id),
        },
      });
    }

    /** The connection is gone (closed, dropped, idle): nothing of the session may remain. */
    async end(): Promise<void> {
      if (this.closed) return;
      this.closed = true;
      await this.chain.catch(() => undefined);
      const ep = this.episode;
      this.episode = undefined;
      if (ep && !ep.done) await finish(this.id, ep, 'gave_up').catch(() => undefined);
      await engine.close(this.id).catch(() => undefined);
    }
  }

  const sessions = new Set<Session>();
  const notify = () => o.onSessions?.(sessions.size);

  function json(res: ServerResponse, status: number, value: unknown): void {
    const body = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 1_000_000) throw new WsError('VALIDATION_ERROR', 'body over 1 MB');
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return text.trim() === '' ? {} : JSON.parse(text);
  }

  /** POST /reset and /step: a fresh environment per request, as OpenEnv's stateless HTTP mode. */
  async function stateless(route: '/reset' | '/step', body: unknown, res: ServerResponse) {
    const id = `http-${randomUUID()}`;
    const data = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    try {
      if (route === '/reset') {
        const args = resetArgs(data);
        const start = await engine.reset({
          id,
          spec: o.spec,
          seed: args.seed,
          ...(args.taskId ? { taskId: args.taskId } : {}),
        });
        json(
          res,
          200,
          serializeObservation({
            observation: start.observation,
            info: start.info,
            reward: null,
            done: false,
            metadata: { seed: args.seed, task_id: start.task.id, step: 0 },
          }),
        );
        return;
      }
      const parsed = parseAction(data.action, shape);
      if (!parsed.ok) {
        json(res, 422, {
          detail: parsed.errors.map((e: ValidationIssue) => ({
            ...e,
            loc: ['body', 'action', ...e.loc],
          })),
        });
        return;
      }
      await engine.reset({ id, spec: o.spec, seed: 0 });
      const out = await engine.step(id, parsed.action);
      const meta: JsonObject = { seed: 0, task_id: specTask, step: 1, invalid: out.record.invalid };
      if (out.ended) meta.evaluation = evaluationMetadata(await engine.evaluate(id));
      json(
        res,
        200,
        serializeObservation({
          observation: out.record.observation,
          info: out.record.info,
          reward: out.record.reward,
          done: out.ended,
          metadata: meta,
        }),
      );
    } catch (e) {
      if (e instanceof WsError) json(res, 422, { detail: e.extra.errors ?? e.message });
      else json(res, 500, { detail: errorText(e) });
    } finally {
      await engine.close(id).catch(() => undefined);
    }
  }

  const http: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = `${req.method} ${path}`;
    if (route === 'GET /health') return json(res, 200, { status: 'healthy' });
    if (route === 'GET /schema') return json(res, 200, schemas);
    if (route === 'GET /metadata') return json(res, 200, metadata);
    if (route === 'GET /state') return json(res, 200, { episode_id: null, step_count: 0 });
    if (route === 'POST /reset' || route === 'POST /step') {
      readBody(req).then(
        (body) => stateless(path as '/reset' | '/step', body, res),
        () =>
          json(res, 422, {
            detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' }],
          }),
      );
      return;
    }
    json(res, 404, { detail: 'Not Found' });
  });
  const wss = new (wsPackage().WebSocketServer)({
    noServer: true,
    maxPayload: 4 * 1024 * 1024,
    perMessageDeflate: false,
  });
  http.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== '/ws') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      (ws as unknown as { _socket?: { setNoDelay?: (b: boolean) => void } })._socket?.setNoDelay?.(
        true,
      );
      if (sessions.size >= maxSessions) {
        ws.send(
          errorFrame(
            'CAPACITY_REACHED',
            `Server at capacity (${sessions.size}/${maxSessions} sessions)`,
            {
              active_sessions: sessions.size,
              max_sessions: maxSessions,
            },
          ),
        );
        ws.close(1000);
        return;
      }
      const session = new Session(ws);
      sessions.add(session);
      notify();
      ws.on('message', (data, isBinary) => {
        if (isBinary) session.enqueue('');
        else session.enqueue(data.toString());
      });
      const gone = () => {
        if (!sessions.delete(session)) return;
        notify();
        void session.end();
      };
      ws.on('close', gone);
      ws.on('error', gone);
    });
  });

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const s of sessions) {
        if (now - s.lastActivity > idleTimeoutMs) {
          s.ws.close(1001, `idle for ${Math.round(idleTimeoutMs / 1000)} s`);
          // A client that does not answer the close handshake is cut off.
          setTimeout(() => s.ws.terminate(), 2_000).unref();
        }
      }
    },
    Math.max(50, Math.min(idleTimeoutMs / 4, 5_000)),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) => {
      clearInterval(sweeper);
      const where = `${o.host ?? '127.0.0.1'}:${o.port ?? 0}`;
      if (e.code === 'EADDRINUSE')
        reject(
          new ConflictError(
            `port ${o.port} is in use on ${o.host ?? '127.0.0.1'}; pick another (0 takes a free one)`,
          ),
        );
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES')
        reject(new InvalidInputError(`cannot listen on ${where} (${e.code})`));
      else reject(e);
    });
    http.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address() as AddressInfo;
  const host = o.host ?? '127.0.0.1';
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    port: address.port,
    host,
    shape,
    stats: () => ({ sessions: sessions.size, maxSessions, ...totals }),
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        const ending = [...sessions].map((s) => s.end());
        for (const s of sessions) s.ws.terminate();
        sessions.clear();
        await Promise.all(ending);
        wss.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections?.();
        await o.recorder?.close();
      })();
      return closing;
    },
  };
}
