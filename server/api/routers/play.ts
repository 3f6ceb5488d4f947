// "Try it": play a harnessed environment step by step in the browser, as a policy would see it.
// Sessions live in this process, keyed by an unguessable id, closed when idle.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Json } from '../../../bridges/core/types.ts';
import { NotFoundError } from '../../errors.ts';
import { createHarness, type Harness, parseSpec } from '../../harness/index.ts';
import { ActionSchema, MAX_STAGE_ACTIONS } from '../../harness/spec.ts';
import { studioJob } from '../studio-pool.ts';
import { publicProcedure, router } from '../trpc.ts';

interface Session {
  harness: Harness;
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
    if (now - s.lastUsed > IDLE_MS) {
      sessions.delete(id);
      void s.harness.close();
    }
  }
  // Oldest first when too many are open.
  while (sessions.size >= MAX_SESSIONS) {
    const [id, s] = [...sessions].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
    sessions.delete(id);
    void s.harness.close();
  }
}

export function closePlaySessions(): void {
  for (const s of sessions.values()) void s.harness.close();
  sessions.clear();
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
      const harness = await createHarness(parseSpec(input.spec));
      try {
        const reset = await harness.reset(
          input.taskId ? { seed: input.seed, taskId: input.taskId } : { seed: input.seed },
        );
        const id = randomUUID();
        sessions.set(id, {
          harness,
          owner: ctx.user.id,
          lastUsed: Date.now(),
          steps: 0,
          done: false,
        });
        return {
          sessionId: id,
          observation: reset.observation,
          info: reset.info,
          task: harness.task(),
          tools: harness.tools(),
          textTool: harness.textTool() ?? null,
          state: harness.getEnvState(),
        };
      } catch (e) {
        await harness.close();
        throw e;
      }
    }),

  step: publicProcedure
    .input(z.object({ sessionId: z.string(), action: ActionSchema }))
    .mutation(async ({ input, ctx }) => {
      const s = session(input.sessionId, ctx.user.id);
      const result = await s.harness.step(input.action);
      s.steps += 1;
      s.done = result.terminated || result.truncated;
      const evaluation = s.done ? await s.harness.evaluate() : null;
      return {
        record: result.record,
        state: s.harness.getEnvState() as Json,
        agentSteps: s.harness.agentSteps,
        done: s.done,
        evaluation,
      };
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

  evaluate: publicProcedure
    .input(z.object({ sessionId: z.string() }))
    .query(({ input, ctx }) => session(input.sessionId, ctx.user.id).harness.evaluate()),

  close: publicProcedure
    .input(z.object({ sessionId: z.string() }))
    .mutation(async ({ input, ctx }) => {
      const s = sessions.get(input.sessionId);
      if (s && s.owner === ctx.user.id) {
        sessions.delete(input.sessionId);
        await s.harness.close();
      }
      return { closed: true };
    }),
});
