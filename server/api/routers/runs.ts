// Runs, their episodes and trajectories, and the live event stream of a run (SSE, resumable).
import { tracked } from '@trpc/server';
import { z } from 'zod';
import type { Action } from '../../../bridges/core/types.ts';
import { pageEpisodes } from '../../db/queries.ts';
import { rolloutDb } from '../../rollouts/db.ts';
import { firstBase } from '../../rollouts/episode.ts';
import {
  cancelRun,
  getEpisode,
  getRunSummary,
  getSteps,
  LaunchRunInputSchema,
  launchRun,
  listRunEvents,
  listRuns,
  type RunSummary,
  subscribeRun,
} from '../../rollouts/service.ts';
import { studioJob } from '../studio-pool.ts';
import { publicProcedure, router } from '../trpc.ts';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** A run as lists show it: the summary without the spec body, plus where it ran. */
function listItem(s: RunSummary) {
  const { spec, rewardParams: _rewardParams, ...rest } = s;
  const base = firstBase(spec.env);
  return { ...rest, bridge: base.bridge, task: base.task, harnessed: spec.env.type !== 'base' };
}

export const runsRouter = router({
  list: publicProcedure
    .input(
      z
        .object({
          cursor: z.string().nullish(),
          limit: z.number().int().min(1).max(100).default(30),
          task: z.string().optional(),
          bridge: z.string().optional(),
        })
        .optional(),
    )
    .query(async ({ input, ctx }) => {
      const limit = input?.limit ?? 30;
      // Team mode: only the active project's runs.
      const projectId = ctx.auth?.projectId;
      let ids: string[];
      let nextCursor: string | null;
      if (input?.task) {
        // Runs of one task: the run service lists all runs, so the task filter is a direct query.
        const db = await rolloutDb();
        const rows = await db.run.findMany({
          where: { taskIds: { has: input.task }, ...(projectId ? { projectId } : {}) },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit,
          select: { id: true },
        });
        ids = rows.map((r) => r.id);
        nextCursor = null;
      } else {
        const page = await listRuns({
          limit,
          ...(input?.cursor ? { cursor: input.cursor } : {}),
          ...(projectId ? { projectId } : {}),
        });
        ids = page.items.map((r) => r.id);
        nextCursor = page.nextCursor;
      }
      const items = (await Promise.all(ids.map((id) => getRunSummary(id))))
        .map(listItem)
        .filter((r) => !input?.bridge || r.bridge === input.bridge);
      return { items, nextCursor };
    }),

  byId: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input }) => getRunSummary(input.id)),

  launch: publicProcedure.input(LaunchRunInputSchema).mutation(({ input, ctx }) =>
    launchRun({
      ...input,
      createdBy: ctx.user.id,
      // Team mode: a run belongs to the caller's active project (authorised by the middleware).
      ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}),
    }),
  ),

  cancel: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ input }) => cancelRun(input.id)),

  episodes: publicProcedure
    .input(
      z.object({
        runId: z.string().min(1),
        outcome: z.enum(['success', 'failure', 'error']).optional(),
        failureCategory: z.string().optional(),
        cursor: z.number().int().nullish(),
        limit: z.number().int().min(1).max(1000).default(200),
      }),
    )
    .query(async ({ input }) => {
      // The list needs no per-episode JSON (reward terms, verdicts): the shared list select keeps
      // these refetches cheap while a run streams.
      const db = await rolloutDb();
      const page = await pageEpisodes(db, input.runId, {
        take: input.limit,
        where: {
          status: 'done',
          ...(input.outcome ? { outcome: input.outcome } : {}),
          ...(input.failureCategory ? { failureCategory: input.failureCategory } : {}),
        },
        ...(input.cursor !== null && input.cursor !== undefined ? { after: input.cursor } : {}),
      });
      return {
        items: page.items.map((e) => ({
          ...e,
          startedAt: e.startedAt?.toISOString() ?? null,
          finishedAt: e.finishedAt?.toISOString() ?? null,
        })),
        nextCursor: page.next ?? null,
      };
    }),

  episode: publicProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ input }) => {
    const episode = await getEpisode(input.id);
    const run = await getRunSummary(episode.runId);
    return { episode, run: listItem(run), spec: run.spec };
  }),

  /** A page of steps starting at `from` (the viewer fetches only the pages in view). */
  steps: publicProcedure
    .input(
      z.object({
        episodeId: z.string().min(1),
        from: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .query(({ input }) =>
      getSteps(input.episodeId, {
        limit: input.limit,
        ...(input.from > 0 ? { cursor: input.from - 1 } : {}),
      }),
    ),

  /** Which steps are blocked, invalid or changed by a layer — small enough for 10,000 steps. */
  stepFlags: publicProcedure
    .input(z.object({ episodeId: z.string().min(1) }))
    .query(async ({ input }) => {
      const db = await rolloutDb();
      // Only indices cross the wire: the steps' JSON stays in the database.
      const rows = await db.$queryRaw<
        { index: number; invalid: boolean; blocked: boolean; changed: boolean; rewarded: boolean }[]
      >`SELECT "index", "invalid", ("blocked" IS NOT NULL) AS "blocked",
               (jsonb_typeof("changes") = 'array' AND jsonb_array_length("changes") > 0) AS "changed",
               ("reward" <> 0) AS "rewarded"
        FROM "Step" WHERE "episodeId" = ${input.episodeId} ORDER BY "index"`;
      const pick = (key: 'invalid' | 'blocked' | 'changed' | 'rewarded') =>
        rows.filter((r) => r[key]).map((r) => r.index);
      return {
        total: rows.length,
        invalid: pick('invalid'),
        blocked: pick('blocked'),
        changed: pick('changed'),
        rewarded: pick('rewarded'),
      };
    }),

  /**
   * The run's events as they commit. Each carries its RunEvent id (`tracked`), so a reconnecting
   * client sends lastEventId and resumes without gaps or duplicates. A fresh subscriber starts at
   * the newest event (it has just read the summary); the stream ends after run_completed.
   */
  live: publicProcedure
    .input(z.object({ runId: z.string().min(1), lastEventId: z.string().nullish() }))
    .subscription(async function* ({ input, signal }) {
      let from = input.lastEventId ?? undefined;
      const summary = await getRunSummary(input.runId);
      if (from === undefined) {
        if (FINAL.has(summary.status)) return;
        const db = await rolloutDb();
        const last = await db.runEvent.findFirst({
          where: { runId: input.runId },
          orderBy: { id: 'desc' },
          select: { id: true },
        });
        from = last?.id.toString();
      }
      for await (const event of subscribeRun(input.runId, from, {
        untilCompleted: true,
        pollMs: 1000,
        ...(signal ? { signal } : {}),
      })) {
        yield tracked(event.id, event);
      }
    }),

  /**
   * The state view after step `step` (or after reset when -1). Runs record no per-step state by
   * default, so it is rebuilt deterministically: same spec, task and seed, the agent's actions replayed.
   */
  stateAt: publicProcedure
    .input(z.object({ episodeId: z.string().min(1), step: z.number().int().min(-1) }))
    .query(async ({ input }) => {
      const episode = await getEpisode(input.episodeId);
      const run = await getRunSummary(episode.runId);
      const db = await rolloutDb();
      const rows = await db.step.findMany({
        where: { episodeId: input.episodeId, index: { lte: input.step } },
        orderBy: { index: 'asc' },
        select: { action: true },
      });
      const { state } = await studioJob('replayState', {
        spec: run.spec,
        seed: episode.seed,
        taskId: episode.taskId,
        actions: rows.map((r) => r.action as unknown as Action),
      });
      return { step: input.step, state };
    }),

  events: publicProcedure
    .input(z.object({ runId: z.string().min(1), after: z.string().optional() }))
    .query(({ input }) => listRunEvents(input.runId, input.after)),
});
