// The harness library: named harnesses for a task, their immutable versions, the check that a spec
// builds (hook code compiles, bridges and tasks exist), and people's approve / reject decisions.
import { z } from 'zod';
import type { Action } from '../../../bridges/core/types.ts';
import { getDb } from '../../db/index.ts';
import { harnessVersionSelect } from '../../db/queries.ts';
import { NotFoundError } from '../../errors.ts';
import { parseSpec } from '../../harness/index.ts';
import { getEpisode } from '../../rollouts/service.ts';
import {
  createHarnessWithVersion,
  decideHarnessVersion,
  saveHarnessVersion,
} from '../harness-library.ts';
import { studioJob } from '../studio-pool.ts';
import { publicProcedure, router } from '../trpc.ts';

const NameSchema = z.string().trim().min(1).max(120);

export const harnessesRouter = router({
  list: publicProcedure
    .input(z.object({ bridge: z.string().optional(), task: z.string().optional() }).optional())
    .query(async ({ input, ctx }) => {
      const db = await getDb();
      return db.harness.findMany({
        where: {
          // Team mode: only the active project's harnesses.
          ...(ctx.auth?.projectId ? { projectId: ctx.auth.projectId } : {}),
          ...(input?.bridge ? { bridge: input.bridge } : {}),
          ...(input?.task ? { taskId: input.task } : {}),
        },
        orderBy: { updatedAt: 'desc' },
        take: 200,
        select: {
          id: true,
          name: true,
          bridge: true,
          taskId: true,
          status: true,
          description: true,
          createdAt: true,
          updatedAt: true,
          versions: {
            orderBy: { version: 'desc' },
            take: 1,
            select: { id: true, version: true, name: true },
          },
          _count: { select: { versions: true } },
        },
      });
    }),

  byId: publicProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ input }) => {
    const db = await getDb();
    const harness = await db.harness.findUnique({
      where: { id: input.id },
      select: {
        id: true,
        name: true,
        bridge: true,
        taskId: true,
        status: true,
        description: true,
        createdAt: true,
        versions: {
          orderBy: { version: 'asc' },
          select: {
            ...harnessVersionSelect,
            runs: {
              orderBy: { createdAt: 'desc' },
              select: { id: true, kind: true, status: true, policy: true, createdAt: true },
            },
            approvals: {
              orderBy: { at: 'desc' },
              select: { id: true, decision: true, reason: true, by: true, at: true },
            },
          },
        },
      },
    });
    if (!harness) throw new NotFoundError(`harness '${input.id}' not found`);
    return harness;
  }),

  create: publicProcedure
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
      createHarnessWithVersion(await getDb(), {
        name: input.name,
        spec: parseSpec(input.spec),
        versionName: input.versionName,
        note: input.note,
        description: input.description,
        createdBy: ctx.user.id,
        // Team mode: the harness belongs to the caller's active project.
        projectId: ctx.auth?.projectId ?? null,
      }),
    ),

  saveVersion: publicProcedure
    .input(
      z.object({
        harnessId: z.string().min(1),
        name: NameSchema,
        spec: z.unknown(),
        note: z.string().max(2000).default(''),
      }),
    )
    .mutation(async ({ input, ctx }) =>
      saveHarnessVersion(await getDb(), {
        harnessId: input.harnessId,
        name: input.name,
        spec: parseSpec(input.spec),
        note: input.note,
        createdBy: ctx.user.id,
      }),
    ),

  version: publicProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ input }) => {
    const db = await getDb();
    const v = await db.harnessVersion.findUnique({
      where: { id: input.id },
      select: {
        ...harnessVersionSelect,
        harness: { select: { id: true, name: true, bridge: true, taskId: true, status: true } },
      },
    });
    if (!v) throw new NotFoundError(`harness version '${input.id}' not found`);
    return v;
  }),

  /**
   * Builds the stack once (bridges, tasks, hook compilation) and reports the first problem as data,
   * with the hook's line and column, so the editor can point at it.
   */
  check: publicProcedure
    .input(z.object({ spec: z.unknown() }))
    .mutation(({ input }) => studioJob('check', { spec: input.spec })),

  /**
   * "Test on a trajectory": replay a recorded episode's agent actions through this spec (same task
   * and seed) and return each step's raw vs filtered action and observation.
   */
  testOnTrajectory: publicProcedure
    .input(
      z.object({
        spec: z.unknown(),
        episodeId: z.string().min(1),
        limit: z.number().int().min(1).max(500).default(200),
      }),
    )
    .mutation(async ({ input }) => {
      const spec = parseSpec(input.spec);
      const episode = await getEpisode(input.episodeId);
      const db = await getDb();
      const rows = await db.step.findMany({
        where: { episodeId: input.episodeId },
        orderBy: { index: 'asc' },
        take: input.limit,
        select: { action: true },
      });
      const { records } = await studioJob('replay', {
        spec,
        seed: episode.seed,
        actions: rows.map((r) => r.action as unknown as Action),
        untilDone: true,
      });
      return { episodeId: episode.id, taskId: episode.taskId, seed: episode.seed, steps: records };
    }),

  /** A person's decision on a candidate version; recorded with who and why, shown in history. */
  decide: publicProcedure
    .input(
      z.object({
        harnessVersionId: z.string().min(1),
        decision: z.enum(['approve', 'reject']),
        reason: z.string().trim().max(2000).default(''),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      const { harnessId: _, ...approval } = await decideHarnessVersion(await getDb(), {
        ...input,
        by: ctx.user.id,
      });
      return approval;
    }),
});
