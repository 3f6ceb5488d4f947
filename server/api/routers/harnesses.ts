// The harness library: named harnesses for a task, their immutable versions, whether a spec runs
// (server/harnesses/validate.ts; create and save refuse a spec that does not), and people's
// approve / reject decisions (final once taken; `reverse` records a new decision with a reason).
import { z } from 'zod';
import { parseSpec } from '../../harness/index.ts';
import { decideVersion, versionGate } from '../../harnesses/decisions.ts';
import {
  createHarnessWithVersion,
  getHarness,
  getHarnessVersion,
  listHarnesses,
  saveHarnessVersion,
} from '../../harnesses/library.ts';
import { poolRunner, runnableSpec, validateSpec } from '../../harnesses/validate.ts';
import { episodeActions } from '../../rollouts/reads.ts';
import type { StudioPool } from '../studio-pool.ts';
import {
  auditAs,
  owns,
  researcherProcedure,
  router,
  sharedReadProcedure,
  viewerProcedure,
} from '../trpc.ts';

const NameSchema = z.string().trim().min(1).max(120);
const ReasonSchema = z.string().trim().max(2000);
/** The decision the person saw in force (null: pending); a different one in force is a conflict. */
const ExpectedSchema = z.string().min(1).nullable().optional();

/** Validation runs its jobs in the studio's worker pool, beside try-it and replays. */
const inStudio = (studio: StudioPool) => poolRunner((handler, input) => studio.job(handler, input));

export const harnessesRouter = router({
  list: viewerProcedure
    .input(z.object({ bridge: z.string().optional(), task: z.string().optional() }).optional())
    .query(({ input, ctx }) =>
      listHarnesses(ctx.db, {
        projectId: ctx.auth.projectId,
        bridge: input?.bridge,
        task: input?.task,
      }),
    ),

  byId: viewerProcedure
    .use(owns('harness', 'id'))
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => getHarness(ctx.db, input.id)),

  create: researcherProcedure
    .input(
      z.object({
        name: NameSchema,
        spec: z.unknown(),
        versionName: NameSchema.default('v1'),
        note: z.string().max(2000).default(''),
        description: z.string().max(2000).default(''),
      }),
    )
    .mutation(async ({ input, ctx }) =>
      createHarnessWithVersion(ctx.db, {
        name: input.name,
        spec: await runnableSpec(input.spec, inStudio(ctx.services.studio)),
        versionName: input.versionName,
        note: input.note,
        description: input.description,
        createdBy: ctx.actor,
        // Team mode: the harness belongs to the caller's active project.
        projectId: ctx.auth.projectId,
      }),
    ),

  saveVersion: researcherProcedure
    .use(owns('harness', 'harnessId'))
    .input(
      z.object({
        harnessId: z.string().min(1),
        name: NameSchema,
        spec: z.unknown(),
        note: z.string().max(2000).default(''),
      }),
    )
    .mutation(async ({ input, ctx }) =>
      saveHarnessVersion(ctx.db, {
        harnessId: input.harnessId,
        name: input.name,
        spec: await runnableSpec(input.spec, inStudio(ctx.services.studio)),
        note: input.note,
        createdBy: ctx.actor,
      }),
    ),

  version: sharedReadProcedure('harnessVersion', 'id')
    .input(z.object({ id: z.string().min(1) }))
    .query(({ input, ctx }) => getHarnessVersion(ctx.db, input.id)),

  /**
   * Whether the spec runs — parsed, bridges and tasks resolved, hooks compiled, the Stage set-up
   * replayed and a dry episode played — with every problem on its node (the editor calls this).
   */
  validate: researcherProcedure
    .meta({ audit: false })
    .input(z.object({ spec: z.unknown() }))
    .mutation(({ input, ctx }) => validateSpec(input.spec, inStudio(ctx.services.studio))),

  /**
   * "Test on a trajectory": replay a recorded episode's agent actions through this spec (same task
   * and seed) and return each step's raw vs filtered action and observation.
   */
  testOnTrajectory: researcherProcedure
    .meta({ audit: false })
    .use(owns('episode', 'episodeId'))
    .input(
      z.object({
        spec: z.unknown(),
        episodeId: z.string().min(1),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      const spec = parseSpec(input.spec);
      const episode = await ctx.services.rollouts.getEpisode(input.episodeId);
      const { records } = await ctx.services.studio.job('replay', {
        spec,
        seed: episode.seed,
        actions: await episodeActions(ctx.db, input.episodeId, { limit: input.limit }),
        untilDone: true,
      });
      return { episodeId: episode.id, taskId: episode.taskId, seed: episode.seed, steps: records };
    }),

  /** Where the decision on a version stands, and what approving it would need (on a chosen run). */
  gate: viewerProcedure
    .use(owns('harnessVersion', 'harnessVersionId'))
    .input(
      z.object({ harnessVersionId: z.string().min(1), validationRunId: z.string().optional() }),
    )
    .query(({ input, ctx }) => versionGate(ctx.db, input.harnessVersionId, input.validationRunId)),

  /**
   * A person's first decision on a version (only while pending), recorded with who and why in one
   * transaction with its audit row. Approving needs a reason when the gate raises concerns.
   */
  decide: researcherProcedure
    .meta({ audit: 'in-transaction' })
    .use(owns('harnessVersion', 'harnessVersionId'))
    .input(
      z.object({
        harnessVersionId: z.string().min(1),
        decision: z.enum(['approve', 'reject']),
        reason: ReasonSchema.default(''),
        validationRunId: z.string().min(1).optional(),
        expectedCurrentId: ExpectedSchema,
      }),
    )
    .mutation(async ({ input, ctx, path }) => {
      const r = await decideVersion(ctx.db, {
        ...input,
        action: { kind: 'decide', decision: input.decision },
        by: ctx.actor,
        audit: auditAs(ctx, path),
      });
      return { ...r.decision, harnessId: r.harnessId, harnessVersionId: r.harnessVersionId };
    }),

  /** Undo a decision: a new decision, the opposite verdict, that names the one it reverses. */
  reverse: researcherProcedure
    .meta({ audit: 'in-transaction' })
    .use(owns('harnessVersion', 'harnessVersionId'))
    .input(
      z.object({
        harnessVersionId: z.string().min(1),
        reason: ReasonSchema.min(1, 'say why the decision is reversed'),
        expectedCurrentId: ExpectedSchema,
      }),
    )
    .mutation(async ({ input, ctx, path }) => {
      const r = await decideVersion(ctx.db, {
        ...input,
        action: { kind: 'reverse' },
        by: ctx.actor,
        audit: auditAs(ctx, path),
      });
      return { ...r.decision, harnessId: r.harnessId, harnessVersionId: r.harnessVersionId };
    }),
});
