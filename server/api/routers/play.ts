// "Try it": play a harnessed environment step by step in the browser, as a policy would see it.
// The environment and its hooks live in the studio's worker pool (studio-handlers.ts); this process
// keeps who owns each session (an unguessable id) and closes idle ones.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import { ActionSchema, MAX_STAGE_ACTIONS } from '../../harness/spec.ts';
import { studioJob } from '../studio-pool.ts';
import { publicProcedure, router } from '../trpc.ts';

interface Session {
  owner: string;
  lastUsed: number;
  steps: number;
  done: boolean;
}

const IDLE_MS = 15 * 60_000;
const MAX_SESSIONS = 32;
const sessions = new Map<string, Session>();

function sweep(now = Date.now()): void {
  for (const [id, s] of sessions) {
    if (now - s.lastUsed > IDLE_MS) end(id);
  }
  // Oldest first when too many are open.
  while (sessions.size >= MAX_SESSIONS) {
    const [id] = [...sessions].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
    end(id);
  }
}

function end(id: string): void {
  sessions.delete(id);
  // The worker may be gone already (pool closed, or replaced after a hook overran): nothing to close.
  studioJob('playClose', { id }).catch(() => undefined);
}

export function closePlaySessions(): void {
  for (const id of [...sessions.keys()]) end(id);
}

function session(id: string, owner: string): Session {
  const s = sessions.get(id);
  if (!s || s.owner !== owner)
    throw new NotFoundError('play session ended (idle or closed); start again');
  s.lastUsed = Date.now();
  return s;
}

export const playRouter = router({
  start: publicProcedure
    .input(
      z.object({
        spec: z.unknown(),
        seed: z.number().int().default(0),
        taskId: z.string().optional(),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      sweep();
      const id = randomUUID();
      const started = await studioJob('playStart', {
        id,
        spec: input.spec,
        seed: input.seed,
        ...(input.taskId ? { taskId: input.taskId } : {}),
      });
      sessions.set(id, { owner: ctx.user.id, lastUsed: Date.now(), steps: 0, done: false });
      return { sessionId: id, ...started };
    }),

  step: publicProcedure
    .input(z.object({ sessionId: z.string(), action: ActionSchema }))
    .mutation(async ({ input, ctx }) => {
      const s = session(input.sessionId, ctx.user.id);
      try {
        const result = await studioJob('playStep', { id: input.sessionId, action: input.action });
        s.steps += 1;
        s.done = result.done;
        return result;
      } catch (e) {
        // The episode ended in a harness error (or its worker was stopped): the session is over.
        sessions.delete(input.sessionId);
        throw e;
      }
    }),

  /**
   * Reset and replay actions in one call, for building Stage set-ups: what the environment says after
   * them, what may be typed next, and the first action it rejected (if any).
   */
  replay: publicProcedure
    .input(
      z.object({
        spec: z.unknown(),
        seed: z.number().int().default(0),
        actions: z.array(ActionSchema).max(MAX_STAGE_ACTIONS),
      }),
    )
    .mutation(async ({ input }) => {
      const r = await studioJob('replay', {
        spec: input.spec,
        seed: input.seed,
        actions: input.actions,
      });
      const failed = r.records.findIndex((rec) => rec.invalid || rec.blocked !== undefined);
      return {
        observation: r.observation,
        admissible: r.admissible,
        textTool: r.textTool,
        failedAt: failed < 0 ? null : failed,
      };
    }),

  evaluate: publicProcedure.input(z.object({ sessionId: z.string() })).query(({ input, ctx }) => {
    session(input.sessionId, ctx.user.id);
    return studioJob('playEvaluate', { id: input.sessionId });
  }),

  close: publicProcedure
    .input(z.object({ sessionId: z.string() }))
    .mutation(async ({ input, ctx }) => {
      const s = sessions.get(input.sessionId);
      if (s && s.owner === ctx.user.id) end(input.sessionId);
      return { closed: true };
    }),
});
