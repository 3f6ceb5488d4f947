// "Try it" sessions: a harnessed environment played step by step in the browser, as a policy would
// see it. The environment and its hooks live in the studio's worker pool (api/studio-handlers.ts);
// this keeps who owns each session (an unguessable id), closes idle ones, and remembers why a
// session ended in an error, so the next step still says so (not just "session ended").
import { randomUUID } from 'node:crypto';
import type { Action } from '../../bridges/core/types.ts';
import type { StudioPool } from '../api/studio-pool.ts';
import { HarnessCodeError, NotFoundError } from '../errors.ts';

interface Session {
  owner: string;
  lastUsed: number;
  steps: number;
  done: boolean;
}

const IDLE_MS = 15 * 60_000;
const MAX_SESSIONS = 32;

/** A session that ended in an error: whose it was, and the error, to repeat on a later call. */
interface Ended {
  owner: string;
  at: number;
  error: unknown;
}

/** The error a call on an ended session gets: the cause again, with what to do about it. */
function endedError(cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  const text = `this play session already ended: ${message} — restart to play again`;
  return cause instanceof HarnessCodeError
    ? new HarnessCodeError(text, cause.hook, cause.line, cause.column)
    : new NotFoundError(text);
}

export class PlaySessions {
  private readonly sessions = new Map<string, Session>();
  private readonly ended = new Map<string, Ended>();

  constructor(private readonly pool: StudioPool) {}

  private sweep(now = Date.now()): void {
    for (const [id, s] of this.sessions) {
      if (now - s.lastUsed > IDLE_MS) this.end(id);
    }
    for (const [id, e] of this.ended) {
      if (now - e.at > IDLE_MS || this.ended.size > MAX_SESSIONS) this.ended.delete(id);
    }
    // Oldest first when too many are open.
    while (this.sessions.size >= MAX_SESSIONS) {
      const [id] = [...this.sessions].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
      this.end(id);
    }
  }

  private end(id: string): void {
    this.sessions.delete(id);
    // The worker may be gone already (pool closed, or replaced after a hook overran): nothing to close.
    this.pool.job('playClose', { id }).catch(() => undefined);
  }

  private session(id: string, owner: string): Session {
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) {
      const ended = this.ended.get(id);
      if (ended && ended.owner === owner) throw endedError(ended.error);
      throw new NotFoundError('play session ended (idle or closed); start again');
    }
    s.lastUsed = Date.now();
    return s;
  }

  async start(owner: string, input: { spec: unknown; seed: number; taskId?: string | undefined }) {
    this.sweep();
    const id = randomUUID();
    const started = await this.pool.job('playStart', {
      id,
      spec: input.spec,
      seed: input.seed,
      ...(input.taskId ? { taskId: input.taskId } : {}),
    });
    this.sessions.set(id, { owner, lastUsed: Date.now(), steps: 0, done: false });
    return { sessionId: id, ...started };
  }

  async step(owner: string, sessionId: string, action: Action) {
    const s = this.session(sessionId, owner);
    try {
      const result = await this.pool.job('playStep', { id: sessionId, action });
      s.steps += 1;
      s.done = result.done;
      return result;
    } catch (e) {
      // The episode ended in a harness error (or its worker was stopped): the session is over, and
      // a later call on it is told why.
      this.sessions.delete(sessionId);
      this.ended.set(sessionId, { owner, at: Date.now(), error: e });
      this.sweep();
      throw e;
    }
  }

  evaluate(owner: string, sessionId: string) {
    this.session(sessionId, owner);
    return this.pool.job('playEvaluate', { id: sessionId });
  }

  /** Another user's session (or one already ended) is NOT_FOUND, as step says, and stays open. */
  close(owner: string, sessionId: string): { closed: true } {
    this.session(sessionId, owner);
    this.end(sessionId);
    return { closed: true };
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.end(id);
  }

  /**
   * Reset and replay actions in one call, for building Stage set-ups: what the environment says after
   * them, what may be typed next, and the first action it rejected (if any).
   */
  async replay(input: { spec: unknown; seed: number; actions: Action[] }) {
    const r = await this.pool.job('replay', input);
    const failed = r.records.findIndex((rec) => rec.invalid || rec.blocked !== undefined);
    return {
      observation: r.observation,
      admissible: r.admissible,
      textTool: r.textTool,
      failedAt: failed < 0 ? null : failed,
    };
  }
}
