// Runs, their episodes and trajectories, and the live event stream of a run (SSE, resumable).
import { tracked } from '@trpc/server';
import { z } from 'zod';
import { groupsFit, LaunchRunFieldsSchema, lastSeedInRange } from '../../../contracts/launch.ts';
import { RunListInputSchema } from '../../../contracts/run-list.ts';
import { FailureCategorySchema, isFinalStatus } from '../../../contracts/runs.ts';
import { configuredPrice, runLlmReport } from '../../rollouts/llm-report.ts';
import {
  episodeActions,
  episodeView,
  pageFinishedEpisodes,
  stepFlags,
} from '../../rollouts/reads.ts';
import { runFacets, runsPage } from '../../rollouts/run-list.ts';
import {
  owns,
  researcherProcedure,
  router,
  sharedReadProcedure,
  viewerProcedure,
} from '../trpc.ts';

export const runsRouter = router({
  /** Filters, a sort on any column, keyset cursor pages (contracts/run-list.ts). */
  list: viewerProcedure
    .input(RunListInputSchema.optional())
    // Team mode: only the active project's runs.
    .query(({ input, ctx }) => runsPage(ctx.db, { ...input, projectId: ctx.auth.projectId })),

  /** The bridges and policies the list's filters offer (those that have runs). */
  facets: viewerProcedure.query(({ ctx }) => runFacets(ctx.db, ctx.auth.projectId)),

  byId: sharedReadProcedure('run', 'id')
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => ctx.services.rollouts.getRunSummary(input.id)),

  /** Tokens, cost estimate and the mode an LLM policy spoke (and why) over the run's episodes. */
  llm: sharedReadProcedure('run', 'id')
    // `done`: the finished episodes the caller has seen; only a cache key (a new count, a new read).
    .input(z.object({ id: z.string().min(1), done: z.number().int().min(0).optional() }))
    .query(({ input, ctx }) =>
      runLlmReport(ctx.db, input.id, configuredPrice(ctx.services.config)),
    ),

  /** Rate-limit back-offs the run's episodes wait in now (live only; polled while the run is in flight). */
  backoff: sharedReadProcedure('run', 'id')
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => ctx.services.rollouts.backoffs(input.id)),

  launch: researcherProcedure
    .use(owns('harnessVersion', 'harnessVersionId'))
    .input(
      LaunchRunFieldsSchema.omit({ projectId: true, createdBy: true })
        .check(lastSeedInRange)
        .check(groupsFit),
    )
    .mutation(({ input, ctx }) =>
      ctx.services.rollouts.launchRun({
        ...input,
        createdBy: ctx.actor,
        // Team mode: a run belongs to the caller's active project, never the client's word.
        ...(ctx.auth.projectId ? { projectId: ctx.auth.projectId } : {}),
      }),
    ),

  cancel: researcherProcedure
    .use(owns('run', 'id'))
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ input, ctx }) => ctx.services.rollouts.cancelRun(input.id)),

  /** Finished episodes as the list shows them (no per-episode JSON: cheap refetches while live). */
  episodes: sharedReadProcedure('run', 'runId')
    .input(
      z.object({
        runId: z.string().min(1),
        outcome: z.enum(['success', 'failure', 'error']).optional(),
        failureCategory: FailureCategorySchema.optional(),
        cursor: z.number().int().nullish(),
        limit: z.number().int().min(1).max(1000).default(200),
      }),
    )
    .query(({ input, ctx }) => pageFinishedEpisodes(ctx.db, input.runId, input)),

  episode: sharedReadProcedure('episode', 'id')
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => episodeView(ctx.db, input.id)),

  /** A page of steps starting at `from` (the viewer fetches only the pages in view). */
  steps: sharedReadProcedure('episode', 'episodeId')
    .input(
      z.object({
        episodeId: z.string().min(1),
        from: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .query(({ input, ctx }) =>
      ctx.services.rollouts.getSteps(input.episodeId, {
        limit: input.limit,
        ...(input.from > 0 ? { cursor: input.from - 1 } : {}),
      }),
    ),

  /** Which steps are blocked, invalid or changed by a layer — small enough for 10,000 steps. */
  stepFlags: sharedReadProcedure('episode', 'episodeId')
    .input(z.object({ episodeId: z.string().min(1) }))
    .query(({ input, ctx }) => stepFlags(ctx.db, input.episodeId)),

  /**
   * The run's events as they commit. Each carries its RunEvent id (`tracked`), so a reconnecting
   * client sends lastEventId and resumes without gaps or duplicates. A fresh subscriber starts at
   * the newest event (it has just read the summary); the stream ends after run_completed.
   */
  live: sharedReadProcedure('run', 'runId')
    .input(z.object({ runId: z.string().min(1), lastEventId: z.string().nullish() }))
    .subscription(async function* ({ input, signal, ctx }) {
      const { rollouts } = ctx.services;
      let from = input.lastEventId ?? undefined;
      const summary = await rollouts.getRunSummary(input.runId);
      if (from === undefined) {
        if (isFinalStatus(summary.status)) return;
        from = await rollouts.events.lastId(input.runId);
      }
      for await (const event of rollouts.events.subscribe(input.runId, from, {
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
  stateAt: sharedReadProcedure('episode', 'episodeId')
    .input(z.object({ episodeId: z.string().min(1), step: z.number().int().min(-1) }))
    .query(async ({ input, ctx }) => {
      const { episode, spec } = await episodeView(ctx.db, input.episodeId);
      const { state } = await ctx.services.studio.job('replayState', {
        spec,
        seed: episode.seed,
        taskId: episode.taskId,
        actions: await episodeActions(ctx.db, input.episodeId, { through: input.step }),
      });
      return { step: input.step, state };
    }),

  /**
   * The screenshot after step `step` (-1: after reset), rebuilt like the state view: same spec,
   * task and seed, the agent's actions replayed. Null where the bridge takes no screenshots.
   */
  screenshotAt: sharedReadProcedure('episode', 'episodeId')
    .input(z.object({ episodeId: z.string().min(1), step: z.number().int().min(-1) }))
    .query(async ({ input, ctx }) => {
      const { episode, spec } = await episodeView(ctx.db, input.episodeId);
      const { screenshot } = await ctx.services.studio.job('replayScreenshot', {
        spec,
        seed: episode.seed,
        taskId: episode.taskId,
        actions: await episodeActions(ctx.db, input.episodeId, { through: input.step }),
      });
      return { step: input.step, screenshot };
    }),

  events: sharedReadProcedure('run', 'runId')
    .input(z.object({ runId: z.string().min(1), after: z.string().optional() }))
    .query(({ input, ctx }) => ctx.services.rollouts.listRunEvents(input.runId, input.after)),
});
